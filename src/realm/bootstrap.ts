import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { DEFAULT_REALM, realmFile } from '../wire/realm-names';
// Realm files are made by the same code for the first start and for `manage create-realm`.
import { runStorageTask } from './storage-task';

export const DEFAULT_OWNER_EMAIL = 'owner@example.com';

export interface Bootstrap {
  created: boolean;
  ownerIniPath: string;
}

/** The `[api]` INI section that API clients read (zulip-js `zuliprc`). */
export function credentialsIni(email: string, key: string, site: string, password?: string): string {
  const lines = ['[api]', `email=${email}`, `key=${key}`, `site=${site}`];
  if (password) lines.push(`password=${password}`);
  return lines.join('\n') + '\n';
}

/**
 * On an empty data directory, creates the default realm and writes its owner's credentials
 * to `data/owner.ini`; if the realm exists but the file is gone, writes it again.
 */
export async function ensureDefaultRealm(config: Config): Promise<Bootstrap> {
  const ownerIniPath = path.join(config.dataDir, 'owner.ini');
  const site = `http://${config.externalHost}`;
  const file = realmFile(config.dataDir, DEFAULT_REALM);
  const created = !fs.existsSync(file);
  if (!created && fs.existsSync(ownerIniPath)) return { created, ownerIniPath };
  const result = await runStorageTask(
    created
      ? {
          kind: 'create-realm',
          dataDir: config.dataDir,
          subdomain: DEFAULT_REALM,
          name: 'Our organization',
          ownerEmail: DEFAULT_OWNER_EMAIL,
          ownerName: 'Organization Owner',
        }
      : { kind: 'read-owner', dataDir: config.dataDir, subdomain: DEFAULT_REALM },
  );
  if (!result.ok) throw new Error(`cannot prepare the default realm: ${result.message}`);
  if (result.owner) writeSecretFile(ownerIniPath, credentialsIni(result.owner.email, result.owner.key, site, result.owner.password));
  return { created, ownerIniPath };
}

export function writeSecretFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o600 });
}
