import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { PlacementSource } from '../config';
import { NODE_NAME_PATTERN, REALM_NAME_PATTERN } from '../wire/realm-names';

/**
 * The placement (README "Scaling out", DESIGN "Beyond one machine"): which server process
 * ("node") serves which realm, and where each node listens. One small JSON file that the
 * processes read (again on SIGHUP), `manage proxy-config` turns into HAProxy's configuration
 * and `manage move-realm` edits.
 */
export interface Placement {
  /** HAProxy's frontend address (`*:80`, `127.0.0.1:8080`); null: the port of EXTERNAL_HOST. */
  bind: string | null;
  nodes: Record<string, PlacementNode>;
  /** realm → node name */
  realms: Record<string, string>;
  /** Realms being moved between nodes: every node answers them 503 until the move ends. */
  moving: string[];
}

export interface PlacementNode {
  /** host:port where the node's server process listens. */
  address: string;
  /** The node's DATA_DIR, when it is on this machine (move-realm copies realm files there). */
  dataDir: string | null;
}

export class PlacementError extends Error {}

const address = z.string().regex(/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/, 'must be host:port');
const realmName = z.string().regex(REALM_NAME_PATTERN, 'must be a realm name (a subdomain)');
// A node is its address, or an object with its address and data directory.
const nodeSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { address: value } : value),
  z.strictObject({ address, dataDir: z.string().min(1).optional() }),
);
const placementSchema = z
  .strictObject({
    bind: z
      .string()
      .regex(/^(?:\*|[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/, 'must be address:port or *:port')
      .optional(),
    nodes: z.record(z.string().regex(NODE_NAME_PATTERN, 'must be a node name (letters, digits, "_", "." or "-")'), nodeSchema),
    realms: z.record(realmName, z.string()),
    moving: z.array(realmName).default([]),
  })
  .superRefine((placement, ctx) => {
    if (Object.keys(placement.nodes).length === 0)
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'must name at least one node' });
    for (const [realm, node] of Object.entries(placement.realms)) {
      if (!Object.hasOwn(placement.nodes, node)) {
        ctx.addIssue({ code: 'custom', path: ['realms', realm], message: `names node '${node}', which "nodes" does not list` });
      }
    }
    for (const realm of placement.moving) {
      if (!Object.hasOwn(placement.realms, realm)) ctx.addIssue({ code: 'custom', path: ['moving'], message: `'${realm}' is not placed` });
    }
  });

/** Parses a placement file's text; relative data directories are relative to the file. */
export function parsePlacement(text: string, file: string): Placement {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new PlacementError(`${file}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = placementSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      // A bad record key carries the key schema's own message inside.
      const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
      return `${file}: ${issue.path.join('.') || '(top)'}: ${message}`;
    });
    throw new PlacementError(lines.join('\n'));
  }
  const nodes: Record<string, PlacementNode> = {};
  for (const [name, node] of Object.entries(parsed.data.nodes)) {
    nodes[name] = { address: node.address, dataDir: node.dataDir === undefined ? null : path.resolve(path.dirname(file), node.dataDir) };
  }
  return { bind: parsed.data.bind ?? null, nodes, realms: { ...parsed.data.realms }, moving: [...parsed.data.moving] };
}

/** The placement and a digest of the bytes read, which the processes report back (serving.json). */
export function readPlacement(file: string): { placement: Placement; digest: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new PlacementError(`cannot read the placement file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { placement: parsePlacement(text, file), digest: digestOf(text) };
}

/** Replaces the file in one rename, so a process reading it on SIGHUP sees all or nothing. */
export function writePlacement(file: string, placement: Placement): string {
  const nodes: Record<string, { address: string; dataDir?: string }> = {};
  for (const [name, node] of Object.entries(placement.nodes)) {
    nodes[name] = node.dataDir === null ? { address: node.address } : { address: node.address, dataDir: node.dataDir };
  }
  const json: Record<string, unknown> = { nodes, realms: placement.realms };
  if (placement.bind !== null) json['bind'] = placement.bind;
  if (placement.moving.length > 0) json['moving'] = placement.moving;
  const text = JSON.stringify(json, null, 2) + '\n';
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
  return digestOf(text);
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** How this process answers a realm: its own, another node's, being moved, or no node's. */
export type RealmVerdict = 'served' | 'elsewhere' | 'moving' | 'nowhere';

interface ServedState {
  /** null: every realm (no placement). */
  realms: ReadonlySet<string> | null;
  /** Realms some node serves (a placement file); null: unknown, so any other realm is elsewhere. */
  placed: ReadonlySet<string> | null;
  moving: ReadonlySet<string>;
  digest: string | null;
}

/** The realms this process serves, from its PlacementSource; `reload` reads the file again. */
export class ServedRealms {
  private state: ServedState;

  constructor(private readonly source: PlacementSource) {
    this.state = this.read();
  }

  verdict(realm: string): RealmVerdict {
    const { realms, placed, moving } = this.state;
    if (moving.has(realm)) return 'moving';
    if (realms === null || realms.has(realm)) return 'served';
    return placed === null || placed.has(realm) ? 'elsewhere' : 'nowhere';
  }

  serves(realm: string): boolean {
    return this.verdict(realm) === 'served';
  }

  /** The realms served here, sorted; null: every realm in the data directory. */
  get list(): string[] | null {
    const { realms, moving } = this.state;
    return realms === null ? null : [...realms].filter((realm) => !moving.has(realm)).sort();
  }

  /** The digest of the placement file as last read; null without one. */
  get digest(): string | null {
    return this.state.digest;
  }

  /** Reads the placement file again (SIGHUP); a bad file throws and changes nothing. */
  reload(): void {
    this.state = this.read();
  }

  private read(): ServedState {
    const source = this.source;
    if (source.kind === 'all') return { realms: null, placed: null, moving: new Set(), digest: null };
    if (source.kind === 'list') return { realms: new Set(source.realms), placed: null, moving: new Set(), digest: null };
    const { placement, digest } = readPlacement(source.file);
    if (!Object.hasOwn(placement.nodes, source.node)) {
      throw new PlacementError(
        `${source.file}: NODE_NAME '${source.node}' is not one of its nodes (${Object.keys(placement.nodes).join(', ')})`,
      );
    }
    const own = Object.entries(placement.realms).filter(([, node]) => node === source.node);
    return {
      realms: new Set(own.map(([realm]) => realm)),
      placed: new Set(Object.keys(placement.realms)),
      moving: new Set(placement.moving),
      digest,
    };
  }
}

/**
 * Why this process may not create `realm` (`manage create-realm`): a realm file belongs in the
 * data directory of the process that serves it. Null: it may.
 */
export function creationRefusal(source: PlacementSource, realm: string): string | null {
  let verdict: RealmVerdict;
  try {
    verdict = new ServedRealms(source).verdict(realm);
  } catch (err) {
    if (err instanceof PlacementError) return err.message;
    throw err;
  }
  const where = source.kind === 'file' ? `node '${source.node}' of ${source.file}` : 'REALMS';
  switch (verdict) {
    case 'served':
      return null;
    case 'elsewhere':
      return `realm '${realm}' is not served by this process (${where}): create it where it is placed`;
    case 'moving':
      return `realm '${realm}' is being moved between processes`;
    case 'nowhere':
      return `realm '${realm}' is not in the placement file: add "${realm}": "<node>" to its "realms" first`;
  }
}

/**
 * What a running process reports in `<DATA_DIR>/serving.json` after it starts and after each
 * SIGHUP: its pid, the realms it serves once its shards have let go of the others, and the
 * placement digest it acted on (move-realm waits for it).
 */
export interface ServingStatus {
  pid: number;
  realms: string[] | null;
  placementDigest: string | null;
}

export function servingStatusFile(dataDir: string): string {
  return path.join(dataDir, 'serving.json');
}

export function writeServingStatus(dataDir: string, status: ServingStatus): void {
  const file = servingStatusFile(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(status) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

/** The status of the process running on `dataDir`, or null when none is running there. */
export function readServingStatus(dataDir: string): ServingStatus | null {
  let status: ServingStatus;
  try {
    status = JSON.parse(fs.readFileSync(servingStatusFile(dataDir), 'utf8')) as ServingStatus;
  } catch {
    return null;
  }
  try {
    process.kill(status.pid, 0);
  } catch {
    return null; // a stale file: the process is gone
  }
  return status;
}
