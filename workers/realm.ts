import type { Statement } from 'better-sqlite3';
import type { DeleteTopicSettings, RequestFrame, ResponseFrame } from '../src/wire/protocol';
import { openRealmDb, type Db } from './db/open';
import { EventBus, type QueuedEvent } from './events/outbox';
import { ApiError, errors } from './lib/errors';
import { parseParams } from './lib/params';
import { reply } from './lib/reply';
import type { Logger } from './lib/log';
import { authenticate } from './actions/auth';
import { ROUTES } from './routes';
import type { RouteContext } from './lib/route';
import type { UserRow } from './queries/users';
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
  publish(event: QueuedEvent['event'], userIds: readonly number[]): void;
}

interface QueuedAction {
  action: (tx: Txn) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface RealmOptions {
  externalHost: string;
  isDefault: boolean;
  log: Logger;
  renderer: Renderer;
  // edit: delete_topic batching (src/config.ts); absent in unit tests: the defaults
  deleteTopic?: DeleteTopicSettings;
}

/** One organization: its database, its actors and its outbox; owned by one shard thread. */
export class Realm {
  readonly db: Db;
  readonly events = new EventBus();
  private readonly statements = new Map<string, Statement>();
  private batch: QueuedAction[] = [];
  private readonly row: RealmRow;

  constructor(
    readonly name: string,
    file: string,
    private readonly options: RealmOptions,
  ) {
    this.db = openRealmDb(file);
    this.row = this.loadRow();
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

  /** A prepared statement, compiled once per realm connection. */
  stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /**
   * Runs `action` in one write transaction and resolves once it is durable. Events it
   * publishes are delivered after the commit; if it throws, its writes roll back and its
   * events are dropped.
   *
   * Group commit (DESIGN §Storage): actions queued in the same turn of the event loop run
   * in one SQLite transaction, each inside its own savepoint, so one fsync (synchronous=FULL)
   * covers them all and no request is answered before its write is on disk.
   */
  transact<T>(action: (tx: Txn) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.batch.push({ action, resolve: resolve as (value: unknown) => void, reject });
      if (this.batch.length === 1) setImmediate(() => this.commitBatch());
    });
  }

  private commitBatch(): void {
    const batch = this.batch;
    this.batch = [];
    const outcomes: { ok: boolean; value: unknown; outbox: QueuedEvent[] }[] = [];
    try {
      // IMMEDIATE: take the write lock up front, so a reader-turned-writer never fails midway.
      this.db
        .transaction(() => {
          for (const item of batch) {
            const outbox: QueuedEvent[] = [];
            const tx: Txn = { realm: this, publish: (event, userIds) => outbox.push({ event, userIds }) };
            // A savepoint per action: a throw undoes only this action's writes.
            this.stmt('SAVEPOINT action').run();
            try {
              const value = item.action(tx);
              this.stmt('RELEASE action').run();
              outcomes.push({ ok: true, value, outbox });
            } catch (err) {
              this.stmt('ROLLBACK TO action').run();
              this.stmt('RELEASE action').run();
              outcomes.push({ ok: false, value: err, outbox: [] });
            }
          }
        })
        .immediate();
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    for (const [i, item] of batch.entries()) {
      const outcome = outcomes[i] as (typeof outcomes)[number];
      if (outcome.ok) {
        this.events.deliver(outcome.outbox);
        item.resolve(outcome.value);
      } else {
        item.reject(outcome.value);
      }
    }
  }

  async handle(frame: RequestFrame): Promise<ResponseFrame> {
    try {
      const route = ROUTES[frame.route as keyof typeof ROUTES];
      if (!route) return reply(frame.id, 404, { result: 'error', msg: 'Not found' });
      let user: UserRow | null = null;
      if (route.auth === 'user') {
        if (this.row.deactivated) throw errors.realmDeactivated();
        user = authenticate(this, frame.authorization);
      }
      const { values, ignored } = parseParams(route.params, route.aliases, frame.params, frame.pathParams);
      const ctx: RouteContext = { realm: this, user, frame };
      const result = await route.run(ctx, values);
      const body: Record<string, unknown> = { result: 'success', msg: '', ...result };
      if (ignored.length > 0) body['ignored_parameters_unsupported'] = ignored;
      return reply(frame.id, 200, body);
    } catch (err) {
      if (err instanceof ApiError) return reply(frame.id, err.status, err.toBody(), err.headers);
      this.options.log.error({ err, realm: this.name, route: frame.route }, 'unexpected error');
      return reply(frame.id, 500, { result: 'error', msg: 'Internal server error' });
    }
  }

  close(): void {
    this.db.close();
  }

  private loadRow(): RealmRow {
    return this.stmt('SELECT string_id, name, description, date_created, deactivated FROM realm WHERE id = 1').get() as RealmRow;
  }
}
