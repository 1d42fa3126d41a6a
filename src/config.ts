import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  RECENT_ROWS_MIN_RECIPIENTS,
  SPEC_DURATIONS,
  type DeleteTopicSettings,
  type Durations,
  type FileSettings,
  type RetentionSettings,
  type LogFormat,
  type SessionSettings,
  type SnapshotSettings,
} from './wire/protocol';
import { defaultLogFormat } from './wire/log-format';
import { NODE_NAME_PATTERN, REALM_NAME_PATTERN } from './wire/realm-names';

// SPEC §Limits and §States: the defaults are the spec's values; tests shorten them.
const SPEC_DURATIONS_MS = {
  EVENT_QUEUE_TIMEOUT_MS: SPEC_DURATIONS.eventQueueTimeoutMs,
  HEARTBEAT_INTERVAL_MS: SPEC_DURATIONS.heartbeatIntervalMs,
  TYPING_STARTED_WAIT_MS: SPEC_DURATIONS.typingStartedWaitMs,
  TYPING_STOPPED_WAIT_MS: SPEC_DURATIONS.typingStoppedWaitMs,
  TYPING_STARTED_EXPIRY_MS: SPEC_DURATIONS.typingStartedExpiryMs,
} as const;

const positiveInt = z.coerce.number().int().positive();
const duration = z.coerce.number().int().min(1);
const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

// Loopback: a reverse proxy on the same machine, the deployment HOST=127.0.0.1 is made for.
const LOOPBACK_PROXIES = ['127.0.0.0/8', '::1'];

/** One TRUSTED_PROXIES entry: an IPv4 or IPv6 address, optionally with a CIDR prefix length. */
function isProxyEntry(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
}

const proxyList = z
  .string()
  .transform((text) => (text.trim() === 'none' ? [] : text.split(',').map((entry) => entry.trim())))
  .refine((entries) => entries.every(isProxyEntry), 'must be "none" or comma-separated IP addresses or CIDR ranges');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(9991),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  // Defaults to localhost:<PORT>, so changing only the port keeps the default realm reachable.
  EXTERNAL_HOST: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be host or host:port')
    .optional(),
  // One shard thread per core keeps the front end plus shards at about one thread per core.
  SHARDS: positiveInt.max(64).default(Math.max(1, os.availableParallelism() - 1)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise.
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  // The Prometheus scrape port (GET /metrics), on 127.0.0.1 only. Unset: no metrics listener, so
  // that several servers on one machine never fight over a port nobody asked for.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Seconds between two periodic snapshots of each realm (fractions allowed); 0: none.
  BACKUP_INTERVAL: z.coerce.number().min(0).default(0),
  // Periodic snapshots kept per realm; older ones are deleted.
  BACKUP_KEEP: positiveInt.default(24),
  // Markdown render threads per shard (piscina); 0 renders on the shard thread itself.
  RENDER_THREADS: z.coerce.number().int().min(0).max(16).default(0),
  // Largest request body accepted; uploads (25 MiB, api-notes §Limits) need the headroom.
  // When unset, the upload limit plus 1 MiB for the multipart framing.
  MAX_BODY_BYTES: positiveInt.optional(),
  // A request that a shard has not answered in this time gets a 503.
  SHARD_REQUEST_TIMEOUT_MS: duration.default(30_000),
  // A shard that has not answered the front end's ping for this long is stuck (a synchronous
  // loop): it is terminated and restarted, so its realms stop waiting on it. 0: no watchdog.
  // As long as a request's own timeout: legitimate long synchronous work (a migration of a
  // large realm file when it opens) must finish within it.
  SHARD_WATCHDOG_MS: z.coerce.number().int().min(0).default(30_000),
  // Each shard thread's V8 old-generation limit; past it the thread ends and is restarted
  // rather than taking the whole process down. 0: V8's default.
  SHARD_HEAP_LIMIT_MB: z.coerce.number().int().min(0).default(0),
  EVENT_QUEUE_TIMEOUT_MS: duration.default(SPEC_DURATIONS_MS.EVENT_QUEUE_TIMEOUT_MS),
  HEARTBEAT_INTERVAL_MS: duration.default(SPEC_DURATIONS_MS.HEARTBEAT_INTERVAL_MS),
  TYPING_STARTED_WAIT_MS: duration.default(SPEC_DURATIONS_MS.TYPING_STARTED_WAIT_MS),
  TYPING_STOPPED_WAIT_MS: duration.default(SPEC_DURATIONS_MS.TYPING_STOPPED_WAIT_MS),
  TYPING_STARTED_EXPIRY_MS: duration.default(SPEC_DURATIONS_MS.TYPING_STARTED_EXPIRY_MS),
  // edit: POST /streams/{stream_id}/delete_topic works in batches until this budget is spent,
  // then answers partially_completed (the public API allows itself 50 s); tests shorten it.
  DELETE_TOPIC_TIME_BUDGET_MS: z.coerce.number().int().min(0).default(50_000),
  DELETE_TOPIC_BATCH_SIZE: positiveInt.default(100),
  // stream-prefs: the retention actor sweeps each realm this often (SPEC Stream
  // message_retention_days), deleting this many expired messages per transaction.
  RETENTION_INTERVAL_MS: duration.default(60 * 60_000),
  RETENTION_BATCH_SIZE: positiveInt.default(1000),
  // Test hooks (a route that crashes a shard) exist only when this is set; never in production.
  TEST_HOOKS: flag.default(false),
  // With TEST_HOOKS, each shard thread spins this long before it serves, as on a loaded machine.
  TEST_SHARD_LOAD_MS: duration.default(0),
  // Every success body, published event and delivered event is checked against its zod schema
  // (workers/lib/contract.ts); the test server turns it on, production and benchmarks never do.
  CONTRACT_CHECKS: flag.default(false),
  // stream-writes: the server-wide switch for web-public streams (on by default, as in the public API)
  WEB_PUBLIC_STREAMS_ENABLED: flag.default(true),
  // Upload limits (api-notes §Limits: 25 MiB; avatars and emoji 5 MiB), unclaimed
  // uploads deleted after three weeks (SPEC States "Attachment": a few weeks), temporary URLs.
  MAX_FILE_UPLOAD_SIZE_MIB: positiveInt.max(1024).default(25),
  MAX_IMAGE_UPLOAD_SIZE_MIB: positiveInt.max(1024).default(5),
  // The public server's per-plan upload quota, one for every realm here; unset: unlimited.
  REALM_UPLOAD_QUOTA_MIB: positiveInt.optional(),
  UNCLAIMED_UPLOAD_EXPIRY_MS: duration.default(21 * 24 * 60 * 60_000),
  ATTACHMENT_SWEEP_INTERVAL_MS: duration.default(60 * 60_000),
  TEMPORARY_URL_MS: duration.default(60_000),
  // How often each shard writes the presence it keeps in memory to the realm file
  PRESENCE_FLUSH_INTERVAL_MS: duration.default(60_000),
  // How often each realm promotes members whose account passed the waiting period
  FULL_MEMBERS_INTERVAL_MS: duration.default(24 * 60 * 60_000),
  // The per-person rows of a message to this many people or more land in a small table first;
  // each realm moves them into the large one this often (migration 21)
  RECENT_ROWS_MIN_RECIPIENTS: positiveInt.default(RECENT_ROWS_MIN_RECIPIENTS),
  RECENT_ROWS_INTERVAL_MS: duration.default(30_000),
  // The web page's sessions end after two weeks without use (issue 10 "Signing in").
  SESSION_IDLE_MS: duration.default(14 * 24 * 60 * 60_000),
  // api-notes §Limits: 5 failed logins per username in 30 minutes, then 429 until the oldest ages out.
  LOGIN_FAILURE_WINDOW_MS: duration.default(30 * 60_000),
  // Failed sign-ins from one address within LOGIN_FAILURE_WINDOW_MS, whatever the usernames.
  LOGIN_FAILURE_ADDRESS_LIMIT: positiveInt.default(20),
  // api-notes §Limits: 200 API requests a minute per user, 100 per address for requests that
  // no proven credential names; file requests (avatars, uploads, emoji) have their own budget.
  RATE_LIMITING: flag.default(true),
  RATE_LIMIT_USER_PER_MINUTE: positiveInt.default(200),
  RATE_LIMIT_ADDRESS_PER_MINUTE: positiveInt.default(100),
  RATE_LIMIT_FILES_PER_MINUTE: positiveInt.default(1000),
  // The window the per-minute limits count in; tests shorten it.
  RATE_LIMIT_WINDOW_MS: duration.default(60_000),
  // Requests a shard may have waiting for an answer (parked polls aside) before new requests
  // for its realms get 503 at once instead of queueing behind them.
  SHARD_QUEUE_LIMIT: positiveInt.default(1000),
  // Peers whose X-Forwarded-For / X-Forwarded-Proto are believed; anyone else's are ignored.
  TRUSTED_PROXIES: proxyList.default(LOOPBACK_PROXIES),
  // Scaling out (README "Scaling out"): the realms this process serves, as a list or as this
  // process's node in a placement file; neither: every realm in DATA_DIR.
  REALMS: z
    .string()
    .transform((text) => text.split(',').map((name) => name.trim().toLowerCase()))
    .refine((names) => names.every((name) => REALM_NAME_PATTERN.test(name)), 'must be comma-separated realm names (subdomains)')
    .optional(),
  PLACEMENT_FILE: z.string().min(1).optional(),
  NODE_NAME: z.string().regex(NODE_NAME_PATTERN, 'must be letters, digits, "_", "." or "-" (at most 63)').optional(),
});

// api-notes §Limits: failed logins per username within the window.
const LOGIN_FAILURE_LIMIT = 5;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  externalHost: string;
  shards: number;
  renderThreads: number;
  logLevel: string;
  logFormat: LogFormat;
  /** null: no metrics listener. */
  metricsPort: number | null;
  snapshots: SnapshotSettings;
  maxBodyBytes: number;
  shardRequestTimeoutMs: number;
  shardWatchdogMs: number;
  shardHeapLimitMb: number;
  durations: Durations;
  testHooks: boolean;
  testShardLoadMs: number;
  contractChecks: boolean;
  // edit: delete_topic batching
  deleteTopic: DeleteTopicSettings;
  // stream-prefs
  retention: RetentionSettings;
  // stream-writes
  webPublicStreamsEnabled: boolean;
  files: FileSettings;
  presenceFlushIntervalMs: number;
  fullMembersIntervalMs: number;
  recentRowsIntervalMs: number;
  recentRowsMinRecipients: number;
  sessions: SessionSettings;
  rateLimits: RateLimitSettings;
  shardQueueLimit: number;
  /** Addresses and CIDR ranges; empty: no proxy is trusted. */
  trustedProxies: string[];
  /** Which realms this process serves (src/realm/placement.ts). */
  placement: PlacementSource;
}

/**
 * Where this process learns which realms it serves: all of them (one process), a fixed list
 * (`REALMS`), or its node's entries in a placement file (`PLACEMENT_FILE` + `NODE_NAME`),
 * read again on SIGHUP.
 */
export type PlacementSource = { kind: 'all' } | { kind: 'list'; realms: string[] } | { kind: 'file'; file: string; node: string };

/** The front end's request budgets (src/http/rate-limit.ts). */
export interface RateLimitSettings {
  enabled: boolean;
  userPerWindow: number;
  addressPerWindow: number;
  filesPerWindow: number;
  windowMs: number;
  loginFailuresPerAddress: number;
  loginFailureWindowMs: number;
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; every bad value gets its own line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') present[key] = value;
  }
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}=${JSON.stringify(present[String(issue.path[0])])}: ${issue.message}`,
    );
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    placement: placementSource(e.REALMS, e.PLACEMENT_FILE, e.NODE_NAME),
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    externalHost: (e.EXTERNAL_HOST ?? `localhost:${e.PORT}`).toLowerCase(),
    shards: e.SHARDS,
    renderThreads: e.RENDER_THREADS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? defaultLogFormat(),
    metricsPort: e.METRICS_PORT ?? null,
    snapshots: { intervalMs: Math.round(e.BACKUP_INTERVAL * 1000), keep: e.BACKUP_KEEP },
    maxBodyBytes: e.MAX_BODY_BYTES ?? (e.MAX_FILE_UPLOAD_SIZE_MIB + 1) * 1024 * 1024,
    shardRequestTimeoutMs: e.SHARD_REQUEST_TIMEOUT_MS,
    shardWatchdogMs: e.SHARD_WATCHDOG_MS,
    shardHeapLimitMb: e.SHARD_HEAP_LIMIT_MB,
    durations: {
      eventQueueTimeoutMs: e.EVENT_QUEUE_TIMEOUT_MS,
      heartbeatIntervalMs: e.HEARTBEAT_INTERVAL_MS,
      typingStartedWaitMs: e.TYPING_STARTED_WAIT_MS,
      typingStoppedWaitMs: e.TYPING_STOPPED_WAIT_MS,
      typingStartedExpiryMs: e.TYPING_STARTED_EXPIRY_MS,
    },
    testHooks: e.TEST_HOOKS,
    testShardLoadMs: e.TEST_HOOKS ? e.TEST_SHARD_LOAD_MS : 0,
    contractChecks: e.CONTRACT_CHECKS,
    deleteTopic: { timeBudgetMs: e.DELETE_TOPIC_TIME_BUDGET_MS, batchSize: e.DELETE_TOPIC_BATCH_SIZE },
    // stream-prefs
    retention: { intervalMs: e.RETENTION_INTERVAL_MS, batchSize: e.RETENTION_BATCH_SIZE },
    // stream-writes
    webPublicStreamsEnabled: e.WEB_PUBLIC_STREAMS_ENABLED,
    files: {
      maxUploadMib: e.MAX_FILE_UPLOAD_SIZE_MIB,
      maxImageMib: e.MAX_IMAGE_UPLOAD_SIZE_MIB,
      unclaimedExpiryMs: e.UNCLAIMED_UPLOAD_EXPIRY_MS,
      sweepIntervalMs: e.ATTACHMENT_SWEEP_INTERVAL_MS,
      temporaryUrlMs: e.TEMPORARY_URL_MS,
      realmQuotaMib: e.REALM_UPLOAD_QUOTA_MIB ?? null,
    },
    presenceFlushIntervalMs: e.PRESENCE_FLUSH_INTERVAL_MS,
    fullMembersIntervalMs: e.FULL_MEMBERS_INTERVAL_MS,
    recentRowsIntervalMs: e.RECENT_ROWS_INTERVAL_MS,
    recentRowsMinRecipients: e.RECENT_ROWS_MIN_RECIPIENTS,
    sessions: { idleMs: e.SESSION_IDLE_MS, loginFailureLimit: LOGIN_FAILURE_LIMIT, loginFailureWindowMs: e.LOGIN_FAILURE_WINDOW_MS },
    rateLimits: {
      enabled: e.RATE_LIMITING,
      userPerWindow: e.RATE_LIMIT_USER_PER_MINUTE,
      addressPerWindow: e.RATE_LIMIT_ADDRESS_PER_MINUTE,
      filesPerWindow: e.RATE_LIMIT_FILES_PER_MINUTE,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      loginFailuresPerAddress: e.LOGIN_FAILURE_ADDRESS_LIMIT,
      loginFailureWindowMs: e.LOGIN_FAILURE_WINDOW_MS,
    },
    shardQueueLimit: e.SHARD_QUEUE_LIMIT,
    trustedProxies: e.TRUSTED_PROXIES,
  };
}

function placementSource(realms: string[] | undefined, file: string | undefined, node: string | undefined): PlacementSource {
  if (realms !== undefined && file !== undefined)
    throw new ConfigError('invalid configuration:\nREALMS and PLACEMENT_FILE: set one of them, not both');
  if (file !== undefined) {
    if (node === undefined)
      throw new ConfigError('invalid configuration:\nNODE_NAME: required with PLACEMENT_FILE (this process\'s name in its "nodes")');
    return { kind: 'file', file: path.resolve(file), node };
  }
  if (node !== undefined) throw new ConfigError('invalid configuration:\nNODE_NAME: only meaningful with PLACEMENT_FILE');
  return realms === undefined ? { kind: 'all' } : { kind: 'list', realms };
}

export { SPEC_DURATIONS_MS };
