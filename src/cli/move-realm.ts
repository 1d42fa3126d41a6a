import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readPlacement, readServingStatus, writePlacement, type Placement } from '../realm/placement';
import { realmFile } from '../wire/realm-names';

/** A move that cannot start or cannot finish; the message says which step and why. */
export class MoveError extends Error {}

export interface MoveOptions {
  realm: string;
  to: string;
  placementFile: string;
  /** How long each running process has to confirm a placement change. */
  confirmTimeoutMs: number;
  /** Rewrites HAProxy's configuration for a placement and reloads it; null: leave HAProxy alone. */
  reloadProxy: ((placement: Placement) => void) | null;
}

export interface MoveResult {
  realm: string;
  from: string;
  to: string;
  bytes: number;
  /** The realm's file as it was on the old node, kept there until the move is known good. */
  snapshot: string;
}

const CONFIRM_POLL_MS = 50;

/**
 * Moves a realm's file from the node that serves it to another (README "Scaling out"):
 *  1. the realm is marked moving, so every process answers it 503 and its old process closes
 *     it (dropping its event queues: clients get BAD_EVENT_QUEUE_ID and register again);
 *  2. the closed file is copied by SQLite's backup into the new node's data directory and
 *     checked, and the old file is set aside as the snapshot;
 *  3. the placement names the new node (still moving) and HAProxy is reloaded to route there;
 *  4. the move ends: the new process opens the realm and serves it, history and uploads
 *     included (uploads live inside the realm file).
 * Both data directories must be reachable from here (placement `dataDir`). A move that fails
 * before step 3 puts the realm back where it was; one whose HAProxy reload fails still ends on
 * the new node, and says HAProxy needs attention.
 */
export async function moveRealm(options: MoveOptions): Promise<MoveResult> {
  const { realm, to, placementFile } = options;
  const { placement } = readPlacement(placementFile);
  const from = placement.realms[realm];
  if (from === undefined) throw new MoveError(`realm '${realm}' is not in the placement ${placementFile}`);
  if (!Object.hasOwn(placement.nodes, to)) throw new MoveError(`--to '${to}' is not a node of ${placementFile}`);
  if (from === to) throw new MoveError(`realm '${realm}' is already on node '${to}'`);
  if (placement.moving.includes(realm)) throw new MoveError(`realm '${realm}' is already being moved (its "moving" entry)`);
  const source = realmFile(dataDirOf(placement, from), realm);
  const target = realmFile(dataDirOf(placement, to), realm);
  if (!fs.existsSync(source)) throw new MoveError(`node '${from}' has no file for realm '${realm}' (${source})`);
  if (fs.existsSync(target)) throw new MoveError(`node '${to}' already has a file for realm '${realm}' (${target}); move it aside first`);

  await apply(placement, { ...placement, moving: [...placement.moving, realm] }, options);
  let snapshot: string;
  try {
    await copyRealmFile(source, target);
    snapshot = setAside(source, dataDirOf(placement, from), realm);
  } catch (err) {
    fs.rmSync(target, { force: true });
    await apply(placement, placement, options);
    throw new MoveError(`the copy failed, so '${realm}' stays on '${from}': ${err instanceof Error ? err.message : String(err)}`);
  }
  const moved = { ...placement, realms: { ...placement.realms, [realm]: to }, moving: [...placement.moving, realm] };
  await apply(placement, moved, options);
  let reloadError: unknown = null;
  try {
    options.reloadProxy?.(moved);
  } catch (err) {
    reloadError = err; // the file is already on the new node: finish the move, then say so
  }
  await apply(placement, { ...moved, moving: placement.moving }, options);
  if (reloadError !== null) {
    const why = reloadError instanceof Error ? reloadError.message : String(reloadError);
    throw new MoveError(`moved '${realm}' to '${to}', but HAProxy was not reloaded (${why}): fix it, then run proxy-config and reload it`);
  }
  return { realm, from, to, bytes: fs.statSync(target).size, snapshot };
}

function dataDirOf(placement: Placement, node: string): string {
  const dataDir = placement.nodes[node]?.dataDir ?? null;
  if (dataDir === null)
    throw new MoveError(
      `node '${node}' has no "dataDir" in the placement: move-realm copies realm files between data directories it can reach`,
    );
  return dataDir;
}

/**
 * Writes the placement and has every running process of a node with a data directory read it
 * (SIGHUP), waiting until each reports the new digest in its serving.json: by then it has
 * closed the realms it no longer serves.
 */
async function apply(base: Placement, next: Placement, options: MoveOptions): Promise<void> {
  const digest = writePlacement(options.placementFile, next);
  for (const [name, node] of Object.entries(base.nodes)) {
    if (node.dataDir === null) continue;
    const status = readServingStatus(node.dataDir);
    if (status === null) continue; // not running: it reads the placement when it starts
    process.kill(status.pid, 'SIGHUP');
    const deadline = Date.now() + options.confirmTimeoutMs;
    while (readServingStatus(node.dataDir)?.placementDigest !== digest) {
      if (readServingStatus(node.dataDir) === null) break; // it stopped meanwhile
      if (Date.now() > deadline)
        throw new MoveError(`node '${name}' (pid ${status.pid}) did not confirm the new placement in time; see its log`);
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_POLL_MS));
    }
  }
}

/** SQLite's backup of the closed file, checked before it takes the realm's name on the new node. */
async function copyRealmFile(source: string, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const incoming = `${target}.incoming`;
  fs.rmSync(incoming, { force: true });
  const from = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await from.backup(incoming);
  } finally {
    from.close();
  }
  const copy = new Database(incoming, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy fails integrity_check: ${String(check)}`);
  } finally {
    copy.close();
  }
  fs.renameSync(incoming, target);
}

/** The old node's file leaves its realms directory (it must not serve it again by mistake). */
function setAside(source: string, dataDir: string, realm: string): string {
  const dir = path.join(dataDir, 'moved-realms');
  fs.mkdirSync(dir, { recursive: true });
  const snapshot = path.join(dir, `${realm}-${new Date().toISOString().replace(/[:.]/g, '-')}.sqlite3`);
  fs.renameSync(source, snapshot);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(source + suffix)) fs.renameSync(source + suffix, snapshot + suffix);
  }
  return snapshot;
}

/** Runs the command that reloads HAProxy (`systemctl reload haproxy`, a signal to its master). */
export function runReloadCommand(command: string): void {
  const result = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new MoveError(`the reload command failed (exit ${String(result.status)}): ${(result.stderr || result.stdout).trim()}`);
  }
}
