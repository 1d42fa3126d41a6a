/**
 * Frames exchanged between the front end (main thread) and the realm shards (worker threads).
 * This file and its siblings in src/wire/ are the only part of src/ that workers/ import.
 */

import type { AdminFrame, AdminResultFrame } from './admin';
import type { MessagePort } from 'node:worker_threads';
import type { RingSlot } from './body-ring';

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Uint8Array;
}

// A file part travels outside the msgpack frame, as a range of the request body that is
// transferred (not copied) to the shard; the shard turns it back into an UploadedFile.
export interface FileRange {
  field: string;
  filename: string;
  contentType: string;
  /** Position in the body's ArrayBuffer (not in a Buffer view of it). */
  offset: number;
  length: number;
}

export type RequestSurface = 'api' | 'json' | 'root';

/**
 * The web page's cookies (issue 10): the front end reads the session's, the shard sets both
 * (the page reads `csrftoken` and sends it back as X-CSRF-Token).
 */
export const SESSION_COOKIE_NAME = 'sessionid';
export const CSRF_COOKIE_NAME = 'csrftoken';

/** One HTTP request, already matched to a route; the front end does no validation or auth. */
export interface RequestFrame {
  kind: 'request';
  id: number;
  realm: string;
  route: string;
  pathParams: Record<string, string>;
  /** Query-string and body parameters; body values win over query values of the same name. */
  params: Record<string, string>;
  files: UploadedFile[];
  // Parts of `body` (set by the shard from the transferred body; never encoded)
  fileRanges?: FileRange[];
  // The Range header of a file request (RFC 9110 §14.2), when sent
  range?: string;
  /** The raw Authorization header, '' when absent. */
  authorization: string;
  /**
   * Which URL space the request came through: `/api/v1/` (Basic auth only), `/json/` (the web
   * page: session cookie only, CSRF token on writes) or the root (files, sign-in).
   */
  surface: RequestSurface;
  /** The `sessionid` cookie's value, '' when absent. */
  sessionCookie: string;
  /** The X-CSRF-Token header, '' when absent. */
  csrfToken: string;
  /** The request reached us over TLS (a TLS-terminating proxy's `X-Forwarded-Proto: https`). */
  secure: boolean;
  userAgent: string;
}

export interface ResponseFrame {
  kind: 'response';
  id: number;
  status: number;
  headers: Record<string, string>;
  /** Set-Cookie values, one header each (a Record cannot hold two headers of one name). */
  cookies?: string[];
  /**
   * The user whose credential (API key or session cookie) the shard accepted for this request:
   * the front end charges later requests bearing that same credential to this user's budget.
   */
  authenticatedUserId?: number;
  /** The JSON body, serialised by the shard so the front end only copies bytes. */
  body: string;
  /** See DurableAfter; binary answers too (a register's shared lists can tell of the last commit). */
  durableAfter?: number;
  // A binary answer (files, pages of cached messages): `bytes` with this Content-Type replace
  // `body`. The bytes travel in the shard's body ring (`slot`, src/wire/body-ring.ts) or, when
  // they do not fit there, beside the frame in the transfer list; either way uncopied by msgpack.
  binary?: {
    contentType: string;
    bytes: Uint8Array;
    slot?: RingSlot;
    /** Shard side only: the body as pieces to join (instead of `bytes`), copied straight into the ring. */
    pieces?: readonly Uint8Array[];
  };
}

/**
 * What crosses the thread boundary: an encoded frame alone (the fast path for JSON), or
 * the frame with one transferred buffer beside it (a request body holding files, or a binary
 * answer's bytes).
 */
export type ThreadMessage = ArrayBuffer | { frame: ArrayBuffer; attached: ArrayBuffer };

/** The client went away: a shard drops whatever it had parked for this request. */
export interface CancelFrame {
  kind: 'cancel';
  id: number;
}

export interface PingFrame {
  kind: 'ping';
  id: number;
}

export interface PongFrame {
  kind: 'pong';
  id: number;
}

/** Graceful stop: the shard closes its realms' databases and answers `closed`. */
export interface CloseFrame {
  kind: 'close';
}

export interface ClosedFrame {
  kind: 'closed';
}

/**
 * The responses a shard finished in one turn of its event loop, in one message: a fan-out
 * answers a thousand parked polls at once, and one message costs less than a thousand.
 */
export interface ResponseBatchFrame {
  kind: 'responses';
  frames: ResponseFrame[];
  durableAfter?: number;
}

/**
 * `durableAfter` on a shard's answers: the number of the shard's last commit when they left.
 * A commit's requests are answered, and its events delivered, right after it, while its WAL is
 * fsynced on the shard's sync thread (workers/db/sync-thread.ts); the front end holds every
 * answer until that thread reports the commit durable (DurableNotice), so no answer can tell of
 * a write that a power cut could still undo, and the realm's thread never waits for the disk.
 */
export type DurableAfter = number;

/** From a shard's sync thread to the front end, on the port of ShardSettings.durablePort. */
export type DurableNotice = { kind: 'durable'; ticket: DurableAfter } | { kind: 'sync-failed'; message: string };

/** The front end asks for the figures only a shard knows (a metrics scrape, src/metrics/). */
export interface StatsRequestFrame {
  kind: 'stats';
  id: number;
}

/** A shard's figures at the moment it was asked. */
export interface ShardStats {
  /** Event queues held by the shard's open realms. */
  eventQueues: number;
  /** GET /events requests parked on those queues. */
  parkedPolls: number;
  /** Realms the shard has open. */
  openRealms: number;
  /** The Markdown render pool (0 threads: rendering runs on the shard thread). */
  render: { threads: number; queued: number; utilization: number; completed: number };
  /** Periodic snapshots written since the thread started, and those that failed. */
  snapshotsWritten: number;
  snapshotsFailed: number;
}

export interface StatsFrame {
  kind: 'stats';
  id: number;
  stats: ShardStats;
}

/**
 * The realms this process now serves (README "Scaling out"; null: all). A shard closes any
 * other realm it has open, dropping its event queues (its clients get BAD_EVENT_QUEUE_ID from
 * the process that serves it next), opens the ones it owns, and answers `serving`.
 */
export interface ServeFrame {
  kind: 'serve';
  id: number;
  realms: string[] | null;
}

export interface ServingFrame {
  kind: 'serving';
  id: number;
}

export type ToShard = RequestFrame | CancelFrame | PingFrame | CloseFrame | AdminFrame | ServeFrame | StatsRequestFrame;

/**
 * The frames the front end posted to a shard in one turn of its event loop, in one message:
 * the polls a fan-out woke come back together, and each message wakes the shard's thread.
 */
export interface ToShardBatchFrame {
  kind: 'batch';
  frames: ToShard[];
}

export type FromShard = ResponseFrame | ResponseBatchFrame | PongFrame | ClosedFrame | AdminResultFrame | ServingFrame | StatsFrame;

/** What a shard thread is told when it starts (worker_threads workerData, structured clone). */
export interface ShardSettings {
  shardIndex: number;
  // scheduled: with shardIndex, tells a shard which realm files it owns (src/wire/shard-hash.ts).
  shardCount: number;
  dataDir: string;
  externalHost: string;
  logLevel: string;
  testHooks: boolean;
  /** TEST_SHARD_LOAD_MS: a slow start, spun before the thread serves (tests only). */
  testShardLoadMs: number;
  /** CONTRACT_CHECKS: validate every answer and event against its schema (tests only). */
  contractChecks: boolean;
  renderThreads: number;
  durations: Durations;
  // edit: delete_topic batching
  deleteTopic: DeleteTopicSettings;
  // stream-prefs: message retention sweeps
  retention: RetentionSettings;
  // stream-writes: WEB_PUBLIC_STREAMS_ENABLED
  webPublicStreamsEnabled: boolean;
  // Upload limits and the attachment lifecycle
  files: FileSettings;
  // How often presence kept in memory is written to the realm file
  presenceFlushIntervalMs: number;
  // How often members past the waiting period join `@role:fullmembers`
  fullMembersIntervalMs: number;
  // How often the rows of messages to many people move into the large table
  recentRowsIntervalMs: number;
  // Recipients from which a message's rows land in the small table first
  recentRowsMinRecipients: number;
  // The web page's sign-in sessions and the failed-login limit
  sessions: SessionSettings;
  // The realms this process serves (null: every realm in dataDir); `serve` frames update it.
  servedRealms: string[] | null;
  // Periodic snapshots of every realm the shard owns (BACKUP_INTERVAL, BACKUP_KEEP)
  snapshots: SnapshotSettings;
  /** 'pretty': human-readable lines (a terminal); 'json': one JSON object per line. */
  logFormat: LogFormat;
  // Shared memory for response bodies (src/wire/body-ring.ts), new with each thread.
  bodyRing: SharedArrayBuffer;
  /**
   * Where the shard's sync thread reports durable commits (DurableNotice), new with each thread;
   * without it (a shard built by a test) each commit's answers wait for its fsync in the shard.
   */
  durablePort?: MessagePort;
}

export type LogFormat = 'json' | 'pretty';

/** Periodic snapshots: each shard copies its realm files into `<dataDir>/backups/<realm>/`. */
export interface SnapshotSettings {
  /** Time between two snapshots of a realm; 0: no periodic snapshots. */
  intervalMs: number;
  /** Snapshots kept per realm; older ones are deleted after each new one. */
  keep: number;
}

/** Web sessions (POST /login) and the failed-login limit shared with POST /fetch_api_key. */
export interface SessionSettings {
  /** A session unused this long ends. */
  idleMs: number;
  /** Failed logins per username within `loginFailureWindowMs` before further attempts are refused. */
  loginFailureLimit: number;
  loginFailureWindowMs: number;
}

/** Upload size limits, unclaimed-upload expiry (SPEC States "Attachment"), temporary URLs. */
export interface FileSettings {
  maxUploadMib: number;
  maxImageMib: number;
  /** An upload no message links is deleted this long after it was made. */
  unclaimedExpiryMs: number;
  /** How often the attachment actor looks for expired unclaimed uploads. */
  sweepIntervalMs: number;
  /** How long a temporary URL (GET /api/v1/user_uploads/...) works. */
  temporaryUrlMs: number;
  /** The most all of a realm's uploads may take, in MiB; null: unlimited (register's `realm_upload_quota_mib`). */
  realmQuotaMib: number | null;
}

/** stream-prefs: how often the retention actor sweeps, and how many messages per transaction. */
export interface RetentionSettings {
  intervalMs: number;
  batchSize: number;
}

/** edit: POST /streams/{stream_id}/delete_topic works in batches within a time budget. */
export interface DeleteTopicSettings {
  timeBudgetMs: number;
  batchSize: number;
}

/** The spec's durations (SPEC §Limits), configurable so tests can shorten them. */
export interface Durations {
  eventQueueTimeoutMs: number;
  heartbeatIntervalMs: number;
  typingStartedWaitMs: number;
  typingStoppedWaitMs: number;
  typingStartedExpiryMs: number;
}

/** SPEC §Limits and §States: the durations' values, the defaults that tests shorten. */
/**
 * Recipients from which a new message's per-person rows land in user_messages_recent, moved into
 * user_messages later (workers/queries/user-message-rows.ts says why so many).
 */
export const RECENT_ROWS_MIN_RECIPIENTS = 500;

export const SPEC_DURATIONS: Durations = {
  eventQueueTimeoutMs: 10 * 60_000,
  heartbeatIntervalMs: 60_000,
  typingStartedWaitMs: 10_000,
  typingStoppedWaitMs: 5_000,
  typingStartedExpiryMs: 15_000,
};
