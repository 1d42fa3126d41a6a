import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Placement } from '../realm/placement';
import { DEFAULT_REALM } from '../wire/realm-names';

/**
 * HAProxy's configuration for a placement (README "Scaling out"): one frontend that routes
 * each Host to the backend of the process serving that realm, one backend per process with a
 * readiness check, and timeouts that outlast a parked long-poll.
 */
export interface ProxySettings {
  /** The host clients use; realm `x` is `x.<externalHost>` (EXTERNAL_HOST). */
  externalHost: string;
  /** A parked GET /events is answered by a heartbeat after this long (HEARTBEAT_INTERVAL_MS). */
  heartbeatIntervalMs: number;
  /** A process answers 503 itself when a shard has not answered by then (SHARD_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** The frontend's address, `*:80` or `127.0.0.1:8080`. */
  bind: string;
  /** Named in the header comment. */
  placementFile: string;
}

// Readiness: 200 only when every shard of the process answers (GET /health; ?ready=1 asks for
// the stricter readiness answer where the server has one, and is ignored where it has not).
const HEALTH_CHECK_PATH = '/health?ready=1';
// Beyond the slowest answer a process gives by itself, so HAProxy never cuts one short.
const TIMEOUT_MARGIN_MS = 5_000;
// HAProxy's own answers (no process up, a process too slow) in the API's error envelope.
const PROXY_ERRORS: readonly [number, string][] = [
  [502, 'The server process for this organization answered badly; try again'],
  [503, 'No server process for this organization is available; try again in a moment'],
  [504, 'The server process for this organization did not answer in time; try again'],
];

export function defaultBind(placement: Placement, externalHost: string): string {
  if (placement.bind !== null) return placement.bind;
  const port = /:(\d+)$/.exec(externalHost)?.[1];
  return `*:${port ?? '80'}`;
}

export function proxySettings(config: Config, placement: Placement, placementFile: string, bind?: string): ProxySettings {
  return {
    externalHost: config.externalHost,
    heartbeatIntervalMs: config.durations.heartbeatIntervalMs,
    requestTimeoutMs: config.shardRequestTimeoutMs,
    bind: bind ?? defaultBind(placement, config.externalHost),
    placementFile,
  };
}

/** The realm's Host header as clients send it (src/realm/resolve.ts reads it the same way). */
export function realmHost(realm: string, externalHost: string): string {
  return realm === DEFAULT_REALM ? externalHost : `${realm}.${externalHost}`;
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export function haproxyConfig(placement: Placement, settings: ProxySettings): string {
  const nodes = Object.keys(placement.nodes).sort();
  // A long-poll is parked until the heartbeat, then may wait the request timeout on its shard.
  const serverTimeout = duration(settings.heartbeatIntervalMs + settings.requestTimeoutMs + TIMEOUT_MARGIN_MS);
  const lines = [
    `# HAProxy configuration written by \`npm run manage -- proxy-config\` from ${settings.placementFile}.`,
    '# Edit the placement and write this again; move-realm rewrites it.',
    'global',
    '    # no `log` line: add one (e.g. `log /dev/log local0`) with `option httplog` to log requests',
    '',
    'defaults',
    '    mode http',
    '    option forwardfor',
    '    timeout connect 5s',
    '    timeout http-request 10s',
    '    timeout http-keep-alive 10s',
    '    timeout queue 10s',
    `    # long-polls: a parked GET /events answers within HEARTBEAT_INTERVAL_MS (${duration(settings.heartbeatIntervalMs)})`,
    `    # plus SHARD_REQUEST_TIMEOUT_MS (${duration(settings.requestTimeoutMs)})`,
    `    timeout client ${serverTimeout}`,
    `    timeout server ${serverTimeout}`,
    ...PROXY_ERRORS.map(
      ([status, msg]) =>
        `    http-error status ${status} content-type application/json string '${JSON.stringify({ result: 'error', msg })}'`,
    ),
    '',
    'frontend teamchat',
    `    bind ${settings.bind}`,
    '    http-request set-header X-Forwarded-Proto https if { ssl_fc }',
  ];
  for (const [realm, node] of Object.entries(placement.realms).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`    acl on_${node} req.hdr(host),lower -m str ${realmHost(realm, settings.externalHost)}`);
  }
  for (const node of nodes) {
    if (Object.values(placement.realms).includes(node)) lines.push(`    use_backend node_${node} if on_${node}`);
  }
  // A host that names no placed realm: any process answers it (404 NONEXISTENT_SUBDOMAIN).
  lines.push(`    default_backend node_${nodes[0] ?? ''}`);
  for (const node of nodes) {
    const address = placement.nodes[node]?.address ?? '';
    lines.push(
      '',
      `backend node_${node}`,
      '    option httpchk',
      // HTTP/1.1 with a Host: uWebSockets.js does not answer a bare HTTP/1.0 request.
      `    http-check send meth GET uri ${HEALTH_CHECK_PATH} ver HTTP/1.1 hdr Host ${address}`,
      '    http-check expect status 200',
      `    server ${node} ${address} check inter 2s fall 2 rise 1`,
    );
  }
  return lines.join('\n') + '\n';
}

/** Where the haproxy program is, or null: on Debian it is /usr/sbin, often not on a user's PATH. */
export function haproxyProgram(): string | null {
  const candidates = [...(process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of candidates) {
    const file = path.join(dir, 'haproxy');
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/**
 * Writes the configuration to `file` in one rename, after `haproxy -c` accepted it when the
 * program is installed here; a refused configuration leaves the old one in place.
 */
export function writeHaproxyConfig(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  const program = haproxyProgram();
  if (program !== null) {
    const check = spawnSync(program, ['-c', '-q', '-f', temporary], { encoding: 'utf8' });
    if (check.status !== 0) {
      fs.rmSync(temporary, { force: true });
      throw new Error(`haproxy refused the configuration: ${(check.stderr || check.stdout).trim()}`);
    }
  }
  fs.renameSync(temporary, file);
}
