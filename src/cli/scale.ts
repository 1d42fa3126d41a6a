import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config } from '../config';
import { PlacementError, readPlacement } from '../realm/placement';
import { moveRealm, runReloadCommand } from './move-realm';
import { haproxyConfig, proxySettings, writeHaproxyConfig } from './proxy-config';

/** The commands of README "Scaling out", as the tool's --help lists them. */
export const SCALE_COMMANDS: readonly { name: 'proxy-config' | 'move-realm'; summary: string }[] = [
  { name: 'proxy-config', summary: "write HAProxy's configuration for the placement (stdout, or a file checked by haproxy -c)" },
  { name: 'move-realm', summary: 'move a realm to another server process: its history and uploads come along' },
];

const HELP: Record<string, string> = {
  'proxy-config': `usage: npm run manage -- proxy-config [--placement FILE] [--bind ADDR:PORT] [--out FILE]

Writes HAProxy's configuration from the placement file (--placement, else PLACEMENT_FILE):
one backend per node with a readiness check, each realm's Host routed to its node, timeouts
above the long-poll heartbeat (HEARTBEAT_INTERVAL_MS + SHARD_REQUEST_TIMEOUT_MS). Realm hosts
follow EXTERNAL_HOST. --bind defaults to the placement's "bind", else *:<EXTERNAL_HOST's port>.
`,
  'move-realm': `usage: npm run manage -- move-realm R --to NODE [--placement FILE] [--haproxy-config FILE]
                                      [--reload-command CMD] [--timeout-ms N] [--json]

Moves realm R to node NODE of the placement file (--placement, else PLACEMENT_FILE): every
process answers R with 503 while it moves, its old process closes it (its clients get
BAD_EVENT_QUEUE_ID and register again), the file is copied by SQLite's backup and checked,
the placement switched, HAProxy's configuration rewritten (--haproxy-config) and reloaded
(--reload-command, e.g. "systemctl reload haproxy"), and the new process serves R. Both
nodes need a "dataDir" in the placement. The old file stays in <dataDir>/moved-realms/.
`,
};

class ScaleUsageError extends Error {}

/**
 * Runs one scaling command; reports its own errors (one line on stderr, exit status 2 for a
 * bad argument, 1 for a failure), so the dispatcher needs nothing but this call.
 */
export async function scaleCommand(command: 'proxy-config' | 'move-realm', args: string[], config: Config): Promise<void> {
  try {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(HELP[command] ?? '');
      return;
    }
    if (command === 'proxy-config') proxyConfigCommand(args, config);
    else await moveRealmCommand(args, config);
  } catch (err) {
    const usage =
      err instanceof ScaleUsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'));
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message.split('\n').join('\n  ')}\n`);
    if (usage) process.stderr.write(`\n${HELP[command] ?? ''}`);
    process.exitCode = usage || err instanceof PlacementError ? 2 : 1;
  }
}

function placementFileOf(given: string | undefined, config: Config): string {
  if (given !== undefined) return given;
  if (config.placement.kind === 'file') return config.placement.file;
  throw new ScaleUsageError('--placement FILE is required (or set PLACEMENT_FILE)');
}

function proxyConfigCommand(args: string[], config: Config): void {
  const { values } = parseArgs({
    args,
    options: { placement: { type: 'string' }, bind: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const file = placementFileOf(values.placement, config);
  const { placement } = readPlacement(file);
  const text = haproxyConfig(placement, proxySettings(config, placement, file, values.bind));
  if (values.out === undefined) {
    process.stdout.write(text);
    return;
  }
  writeHaproxyConfig(values.out, text);
  process.stdout.write(`wrote ${values.out}\n`);
}

async function moveRealmCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      to: { type: 'string' },
      placement: { type: 'string' },
      'haproxy-config': { type: 'string' },
      'reload-command': { type: 'string' },
      'timeout-ms': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const [realm, ...extra] = positionals;
  if (realm === undefined) throw new ScaleUsageError('the realm to move is required: move-realm R --to NODE');
  if (extra.length > 0) throw new ScaleUsageError(`one realm at a time (got also ${extra.join(', ')})`);
  if (values.to === undefined) throw new ScaleUsageError('--to NODE is required');
  const timeoutMs = Number(values['timeout-ms'] ?? 30_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new ScaleUsageError('--timeout-ms must be a positive whole number');
  const haproxyFile = values['haproxy-config'];
  const reloadCommand = values['reload-command'];
  if (reloadCommand !== undefined && haproxyFile === undefined) throw new ScaleUsageError('--reload-command needs --haproxy-config');
  if (haproxyFile !== undefined && !fs.existsSync(haproxyFile)) throw new ScaleUsageError(`--haproxy-config ${haproxyFile}: no such file`);
  const placementFile = placementFileOf(values.placement, config);
  const result = await moveRealm({
    realm: realm.toLowerCase(),
    to: values.to,
    placementFile,
    confirmTimeoutMs: timeoutMs,
    reloadProxy:
      haproxyFile === undefined
        ? null
        : (placement) => {
            writeHaproxyConfig(haproxyFile, haproxyConfig(placement, proxySettings(config, placement, placementFile)));
            if (reloadCommand !== undefined) runReloadCommand(reloadCommand);
          },
  });
  if (values.json) {
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  process.stdout.write(
    `moved ${result.realm} from ${result.from} to ${result.to} (${result.bytes} bytes); the old file is kept at ${result.snapshot}\n`,
  );
  if (haproxyFile === undefined)
    process.stdout.write('HAProxy was not touched: run proxy-config and reload it (or pass --haproxy-config and --reload-command)\n');
}
