import fs from 'node:fs';
import path from 'node:path';
import type { AdminArgs } from '../../src/wire/admin';
import { realmFile } from '../../src/wire/realm-names';
import { AdminError, type AdminHost } from './host';
import { checkRealmFile, swapInRealmFile, type Progress } from './realm-files';

/**
 * `restore FILE --realm R [--force]` (issue 23 "Backups that restore"): the file is checked
 * first, and a damaged or too-new one changes nothing. A realm a running server serves is
 * replaced only with `force`: the shard stops serving it, swaps the file in and serves the
 * restored one; its clients' queues are gone (BAD_EVENT_QUEUE_ID) and they register again.
 */
export async function restoreRealm(host: AdminHost, name: string, args: AdminArgs, progress?: Progress): Promise<Record<string, unknown>> {
  const file = args['file'];
  if (typeof file !== 'string' || file === '') throw new AdminError('bad-argument', 'the file to restore is required');
  const source = path.resolve(file);
  const check = checkRealmFile(source);
  if (!check.ok) throw new AdminError('damaged', `${source}: ${check.problem ?? 'unusable'}; nothing was changed`);
  const exists = fs.existsSync(realmFile(host.dataDir, name));
  if (host.serving && exists && args['force'] !== true) {
    throw new AdminError('served', `realm '${name}' is being served; add --force to replace it (its clients must register again)`);
  }
  await host.suspend(name);
  let previous: string | null;
  try {
    previous = await swapInRealmFile(host.dataDir, name, source, progress);
  } finally {
    host.resume(name);
  }
  // Opened again at once, so its actors (scheduled messages, retention) run without waiting.
  host.realm(name);
  return { realm: name, restored_from: source, schema_version: check.schema_version, previous_file: previous };
}
