import type { ChildProcess } from 'node:child_process';
import { readServingStatus, writePlacement, type Placement } from '../../src/realm/placement';
import { manage } from './manage';
import { readIniText } from './server';
import type { Credentials } from './server';

/** The environment of a process (server or CLI) that is node `node` of a placement file. */
export function nodeEnv(node: string, dataDir: string, placementFile: string, externalHost: string): Record<string, string> {
  return { DATA_DIR: dataDir, EXTERNAL_HOST: externalHost, PLACEMENT_FILE: placementFile, NODE_NAME: node };
}

/** `manage create-realm` on a node; the owner's credentials it prints. */
export function createRealmOn(realm: string, env: Record<string, string>): Credentials {
  const created = manage(['create-realm', '--subdomain', realm, '--name', `Realm ${realm}`, '--owner-email', `boss@${realm}.test`], env);
  if (created.status !== 0) throw new Error(`create-realm ${realm} failed: ${created.stderr}`);
  const ini = readIniText(created.stdout);
  return { email: ini['email'] ?? '', key: ini['key'] ?? '' };
}

/** Waits until `check` returns a value other than undefined (polling), or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Writes the placement, sends SIGHUP, and waits until the process reports acting on it. */
export async function replace(
  placementFile: string,
  placement: Placement,
  server: { process: ChildProcess; dataDir: string },
): Promise<void> {
  const digest = writePlacement(placementFile, placement);
  server.process.kill('SIGHUP');
  await eventually('the placement to be confirmed', () =>
    readServingStatus(server.dataDir)?.placementDigest === digest ? true : undefined,
  );
}
