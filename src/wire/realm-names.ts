import path from 'node:path';

/**
 * Realm names and where their files live: both sides need them (the front end resolves hosts
 * and the CLI lists files; shards open the files), so they sit in src/wire/.
 */

/** Realm names are subdomains: lowercase letters, digits and inner hyphens. */
export const REALM_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A server process's name in a placement file (README "Scaling out"); it also names the
 * process's HAProxy backend, so it keeps to characters HAProxy accepts in names.
 */
export const NODE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** The realm that the bare external host (and localhost / 127.0.0.1) serves. */
export const DEFAULT_REALM = 'default';

export function realmsDir(dataDir: string): string {
  return path.join(dataDir, 'realms');
}

export function realmFile(dataDir: string, subdomain: string): string {
  return path.join(realmsDir(dataDir), `${subdomain}.sqlite3`);
}

/** Where a realm's snapshots go: the periodic ones and the one taken before a migration. */
export function snapshotsDir(dataDir: string, subdomain: string): string {
  return path.join(dataDir, 'backups', subdomain);
}
