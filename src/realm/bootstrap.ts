import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config';
import { DEFAULT_REALM } from './resolve';
// Realm files are made by the same code for the first start and for `manage create-realm`.
import { createRealm, realmFile } from '../../workers/db/create-realm';

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
  if (!fs.existsSync(file)) {
    const realm = await createRealm(config.dataDir, {
      subdomain: DEFAULT_REALM,
      name: 'Our organization',
      ownerEmail: DEFAULT_OWNER_EMAIL,
      ownerName: 'Organization Owner',
    });
    writeSecretFile(ownerIniPath, credentialsIni(realm.ownerEmail, realm.ownerApiKey, site, realm.ownerPassword));
    return { created: true, ownerIniPath };
  }
  if (!fs.existsSync(ownerIniPath)) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const owner = db.prepare('SELECT email, api_key FROM users WHERE role = 100 AND is_active = 1 ORDER BY id LIMIT 1').get() as
        | { email: string; api_key: string }
        | undefined;
      if (owner) writeSecretFile(ownerIniPath, credentialsIni(owner.email, owner.api_key, site));
    } finally {
      db.close();
    }
  }
  return { created: false, ownerIniPath };
}

export function writeSecretFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o600 });
}
