import type { Statement } from 'better-sqlite3';
import {
  RECENT_ROWS_MIN_RECIPIENTS,
  SPEC_DURATIONS,
  type DeleteTopicSettings,
  type Durations,
  type FileSettings,
  type SessionSettings,
} from '../src/wire/protocol';
import { InlineCheckpointer, type Checkpointer } from './db/checkpointer';
import { openRealmDb, type Db } from './db/open';
import { GroupCommit, type Publish } from './db/group-commit';
import { SyncedByThread, WalSync, type SyncThread } from './db/wal-sync';
import { EventQueues } from './events/clients';
import { EventBus } from './events/outbox';
import { systemClock, type Clock } from './lib/clock';
import { FailedLoginLimiter } from './lib/login-limiter';
import type { TypingNotifier } from './events/typing';
import type { Logger } from './lib/log';
import { PresenceTable } from './lib/presence';
import { shardStats } from './lib/shard-stats';
import { RenderHold } from './lib/render-hold';
import type { Renderer } from './render/pool';

export interface RealmRow {
  string_id: string;
  name: string;
  description: string;
  date_created: number;
  deactivated: number;
}

/** An action's view of the transaction it runs in: the realm's statements and its outbox. */
export interface Txn {
  readonly realm: Realm;
  readonly publish: Publish;
}

export interface RealmOptions {
  externalHost: string;
  isDefault: boolean;
  log: Logger;
  renderer: Renderer;
  // edit: delete_topic batching (src/config.ts); absent in unit tests: the defaults
  deleteTopic?: DeleteTopicSettings;
  // stream-writes: WEB_PUBLIC_STREAMS_ENABLED (src/config.ts); absent in unit tests: enabled
  webPublicStreamsEnabled?: boolean;
  // events: absent in unit tests: the spec's durations and the system clock
  durations?: Durations;
  // RECENT_ROWS_MIN_RECIPIENTS (src/config.ts); absent in unit tests: the default
  recentRowsMinRecipients?: number;
  clock?: Clock;
  // Absent in unit tests: the defaults (src/config.ts)
  files?: FileSettings;
  sessions?: SessionSettings;
  /** Where the file is copied before a migration; absent in unit tests: not copied. */
  snapshotDir?: string;
  // The shard's checkpointer thread; absent in unit tests: checkpoints on the realm's connection
  checkpointer?: Checkpointer;
  // The shard's sync thread; absent in unit tests: a commit is answered after its fsync here
  syncThread?: SyncThread;
  // CONTRACT_CHECKS (src/config.ts): tests validate every answer and event; absent: off
  contractChecks?: boolean;
  // With CONTRACT_CHECKS, what checks each published event (events/published.ts), given by the
  // shard since the realm sits below the schemas' imports
  eventCheck?: (event: unknown) => void;
}

// src/config.ts's defaults, for unit tests that build a Realm without settings
const DEFAULT_SESSION_SETTINGS: SessionSettings = { idleMs: 14 * 86_400_000, loginFailureLimit: 5, loginFailureWindowMs: 30 * 60_000 };

/** One organization: its database, its actors and its outbox; owned by one shard thread. */
export class Realm {
  readonly db: Db;
  readonly events: EventBus;
  /** The realm's event queues, fed by `events` after each commit. */
  readonly eventQueues: EventQueues;
  private readonly statements = new Map<string, Statement>();
  private readonly rawStatements = new Map<string, Statement>();
  /** cache_version as last read; undefined once this connection may have written since. */
  private knownCacheVersion: number | undefined;
  private cacheVersionForgetQueued = false;
  private cacheVersionRead: Statement<[], number> | undefined;
  private readonly row: RealmRow;
  // Background work (timers) this realm owns, stopped on close (STYLE §2.5: state on the Realm).
  private readonly actors: { stop(): void }[] = [];
  // typing: the realm's typing actor attaches itself here (workers/shard.ts); actions hand it
  // their notices through this interface, since actions may not import actors.
  typing: TypingNotifier | null = null;
  // Presence lives in memory (workers/lib/presence.ts); the presence actor flushes it.
  readonly presence = new PresenceTable();
  // Failed logins by username (POST /fetch_api_key, POST /login), in memory only.
  readonly loginFailures: FailedLoginLimiter;
  // Held only by a test hook (TEST_HOOKS=1), to interleave a request with a send's render.
  readonly renderHold = new RenderHold();
  private readonly commits: GroupCommit<Txn>;
  /** Settles once no connection of this process is open on the file (after close()). */
  released: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    file: string,
    private readonly options: RealmOptions,
  ) {
    this.events = new EventBus(options.eventCheck);
    this.db = openRealmDb(file, { snapshotDir: options.snapshotDir });
    // Commits are made durable off the shard thread (db/wal-sync.ts), and the WAL copied back
    // by the checkpointer (db/checkpointer.ts), not inside whichever commit crossed 1,000 pages.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('wal_autocheckpoint = 0');
    let checkpointer = options.checkpointer;
    if (!checkpointer) {
      const inline = new InlineCheckpointer();
      inline.attach(file, this.db);
      checkpointer = inline;
    }
    this.commits = new GroupCommit<Txn>({
      db: this.db,
      file,
      realmName: name,
      stmt: (sql) => this.stmt(sql),
      events: this.events,
      walSync: options.syncThread ? new SyncedByThread(`${file}-wal`, options.syncThread) : new WalSync(`${file}-wal`),
      checkpointer,
      log: options.log,
      txFor: (publish) => ({ realm: this, publish }),
    });
    this.row = this.loadRow();
    this.eventQueues = new EventQueues(options.clock ?? systemClock, options.durations ?? SPEC_DURATIONS);
    this.eventQueues.restore(this.db);
    // The presence the last flush stored
    this.presence.load(
      this.rows<{ user_id: number; last_connected_time: number; last_active_time: number | null }, []>(
        'SELECT user_id, last_connected_time, last_active_time FROM user_presence',
      ).all(),
    );
    this.events.subscribe((batch) =>
      shardStats.time(
        () => `deliver ${batch.map(({ event, userIds }) => `${event.type} to ${userIds.length}`).join(', ')}`,
        () => this.eventQueues.deliver(batch),
      ),
    );
    this.loginFailures = new FailedLoginLimiter(this.clock, {
      limit: this.sessionSettings.loginFailureLimit,
      windowMs: this.sessionSettings.loginFailureWindowMs,
    });
  }

  /** Whether answers and events are checked against their schemas (workers/lib/contract.ts). */
  get contractChecks(): boolean {
    return this.options.contractChecks ?? false;
  }

  /** Recipients from which a new message's rows land in user_messages_recent (migration 21). */
  get recentRowsMinRecipients(): number {
    return this.options.recentRowsMinRecipients ?? RECENT_ROWS_MIN_RECIPIENTS;
  }

  get durations(): Durations {
    return this.options.durations ?? SPEC_DURATIONS;
  }

  get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  get info(): RealmRow {
    return this.row;
  }

  /** The organization's URL, e.g. http://sub.localhost:9991 (api-notes §b server_settings). */
  get url(): string {
    const host = this.options.isDefault ? this.options.externalHost : `${this.name}.${this.options.externalHost}`;
    return `http://${host}`;
  }

  get log(): Logger {
    return this.options.log;
  }

  get renderer(): Renderer {
    return this.options.renderer;
  }

  get deleteTopicSettings(): DeleteTopicSettings {
    return this.options.deleteTopic ?? { timeBudgetMs: 50_000, batchSize: 100 };
  }

  // stream-writes
  get webPublicStreamsEnabled(): boolean {
    return this.options.webPublicStreamsEnabled ?? true;
  }

  get fileSettings(): FileSettings {
    return (
      this.options.files ?? {
        maxUploadMib: 25,
        maxImageMib: 5,
        unclaimedExpiryMs: 21 * 86_400_000,
        sweepIntervalMs: 3_600_000,
        temporaryUrlMs: 60_000,
        realmQuotaMib: null,
      }
    );
  }

  get sessionSettings(): SessionSettings {
    return this.options.sessions ?? DEFAULT_SESSION_SETTINGS;
  }

  /** A prepared statement, compiled once per realm connection. */
  stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.watchWrites(this.db.prepare(sql))));
    return statement;
  }

  /**
   * The cache_version counter (queries/cache-version.ts), which every cached read checks: several
   * times a request, and reading it is a read transaction of its own (file locks included: 3.8
   * of a poll's 5 µs). So it is read from the file once per turn of the event loop, which is
   * how soon a write by another connection is seen, and again only when this connection may
   * have written since: every statement runs through `stmt` or `rawStmt`, whose writing ones
   * forget the known value, rolled back or not.
   */
  cacheVersion(): number {
    if (this.knownCacheVersion === undefined) {
      this.cacheVersionRead ??= this.db.prepare<[], number>('SELECT version FROM cache_version WHERE id = 1').pluck();
      const version = this.cacheVersionRead.get();
      if (version === undefined) throw new Error('the realm file has no cache_version row');
      this.knownCacheVersion = version;
      if (!this.cacheVersionForgetQueued) {
        this.cacheVersionForgetQueued = true;
        setImmediate(this.forgetCacheVersion);
      }
    }
    return this.knownCacheVersion;
  }

  private readonly forgetCacheVersion = (): void => {
    this.cacheVersionForgetQueued = false;
    this.knownCacheVersion = undefined;
  };

  /** A statement that may write forgets the known cache_version each time it runs. */
  private watchWrites(statement: Statement): Statement {
    if (statement.readonly) return statement;
    const forget = <Args extends unknown[], Result>(run: (...args: Args) => Result) => {
      return (...args: Args): Result => {
        this.knownCacheVersion = undefined;
        return run.apply(statement, args);
      };
    };
    statement.run = forget(statement.run);
    statement.get = forget(statement.get);
    statement.all = forget(statement.all);
    statement.iterate = forget(statement.iterate);
    return statement;
  }

  /**
   * `stmt` with the row type its table's reader declares (workers/queries/<table>.ts): the one
   * place a row's TypeScript type is asserted, instead of a cast at every read.
   */
  rows<Row, Params extends unknown[] = unknown[]>(sql: string): Statement<Params, Row> {
    return this.stmt(sql) as Statement<Params, Row>;
  }

  /**
   * The row of a query that always yields one (an aggregate, the realm's own row, a row the
   * caller's transaction knows exists): a missing row is a bug, not a case for the caller.
   */
  oneRow<Row, Params extends unknown[] = []>(sql: string, ...params: Params): Row {
    const row = this.rows<Row, Params>(sql).get(...params);
    if (row === undefined) throw new Error(`no row from: ${sql}`);
    return row;
  }

  /**
   * A prepared statement whose rows come as arrays of the selected columns, in order: for wide
   * rows read by the hundred, where better-sqlite3 building each row object costs as much as
   * the read itself. Cached apart from `stmt`, whose statements give objects. `Row` is the
   * tuple of the selected columns' types, asserted here as `rows` asserts an object row's.
   */
  rawStmt<Row extends unknown[] = unknown[], Params extends unknown[] = unknown[]>(sql: string): Statement<Params, Row> {
    let statement = this.rawStatements.get(sql);
    if (!statement) this.rawStatements.set(sql, (statement = this.watchWrites(this.db.prepare(sql).raw(true))));
    return statement as Statement<Params, Row>;
  }

  /**
   * Runs `action` in one write transaction and resolves after the commit; events it publishes
   * are delivered then. If it throws, its writes roll back and its events are dropped.
   *
   * Group commit (DESIGN §Storage): actions queued in the same turn of the event loop run
   * in one SQLite transaction, each inside its own savepoint, so one fsync covers them all.
   * No request is answered before its write is on disk: in a shard the front end holds the
   * answers until the sync thread has fsynced the commit (db/wal-sync.ts SyncThread); without
   * one, this resolves only after the fsync.
   */
  transact<T>(action: (tx: Txn) => T): Promise<T> {
    return this.commits.transact(action);
  }

  /** Test hooks only (POST /__test__/sync_hold): false when this realm has no sync thread. */
  holdSync(on: boolean): boolean {
    return this.commits.holdSync(on);
  }

  /** Hands an actor to the realm, which stops it on close. */
  own(actor: { stop(): void }): void {
    this.actors.push(actor);
  }

  /** Stops the actors, saves the event queues for the next start, and closes the file. */
  close(): void {
    for (const actor of this.actors.splice(0)) actor.stop();
    this.eventQueues.stop();
    this.eventQueues.save(this.db);
    this.released = this.commits.close();
    this.db.close();
  }

  private loadRow(): RealmRow {
    return this.oneRow<RealmRow>('SELECT string_id, name, description, date_created, deactivated FROM realm WHERE id = 1');
  }
}
