import fs from 'node:fs';
import { DEFAULT_REALM, REALM_NAME_PATTERN, realmFile, realmsDir, snapshotsDir } from '../src/wire/realm-names';
import type { AdminFrame, AdminResultFrame } from '../src/wire/admin';
import type { RequestFrame, ResponseFrame, ShardSettings, ShardStats } from '../src/wire/protocol';
import { TEST_ROUTE_IDS } from '../src/wire/routes';
import { shardIndexFor } from '../src/wire/shard-hash';
import { ScheduledMessageSender } from './actors/scheduler';
import { TypingActor } from './actors/typing';
import { RetentionActor } from './actors/retention';
import { RecentRowsMover } from './actors/recent-rows';
import { UnclaimedUploadActor } from './actors/attachments';
import { PresenceFlusher } from './actors/presence';
import { FullMembersActor } from './actors/full-members';
import { SnapshotActor, type SnapshotTally } from './actors/snapshots';
import { systemClock } from './lib/clock';
import { errors } from './lib/errors';
import { reply } from './lib/reply';
import type { Logger } from './lib/log';
import { runAdminCommand } from './admin/commands';
import type { AdminHost } from './admin/host';
import { dispatch } from './dispatch';
import { checkPublishedEvent } from './events/published';
import { Realm } from './realm';
import { Renderer } from './render/pool';
import { ThreadCheckpointer, type Checkpointer } from './db/checkpointer';
import { SyncThread } from './db/wal-sync';

const REALM_FILE_SUFFIX = '.sqlite3'; // src/wire/realm-names.ts realmFile

/** The realms one shard thread owns, opened at start or on their first request. */
export class Shard implements AdminHost {
  private readonly realms = new Map<string, Realm>();
  /** Realms not served for a moment: a restore is swapping their file (workers/admin/). */
  private readonly suspended = new Set<string>();
  readonly serving = true;
  private readonly testRoutes = new Set<string>(TEST_ROUTE_IDS);
  private readonly renderer: Renderer;
  /** The realms this process serves (README "Scaling out"); null: all. */
  private served: ReadonlySet<string> | null;
  private readonly snapshots: SnapshotTally = { written: 0, failed: 0 };
  private readonly checkpointer: Checkpointer;
  private readonly syncThread: SyncThread | null;

  constructor(
    private readonly settings: ShardSettings,
    private readonly log: Logger,
  ) {
    this.renderer = new Renderer(settings.renderThreads);
    this.served = settings.servedRealms === null ? null : new Set(settings.servedRealms);
    this.checkpointer = new ThreadCheckpointer((answer) => this.log.warn({ answer }, 'checkpoint failed'));
    this.syncThread = settings.durablePort
      ? new SyncThread(settings.durablePort, (code) => {
          // Its commits would never be released: the front end restarts this shard.
          this.log.error({ code }, 'sync thread ended; ending the shard');
          process.exit(1);
        })
      : null;
    this.openOwnedRealms();
  }

  /**
   * Opens, at start and when the placement changes, every realm file this shard owns (the
   * front end's stable hash) among those this process serves, so their
   * actors run without waiting for a request: scheduled messages due while the server was
   * down go out now. A file that fails to open is logged and retried on its first request.
   */
  private openOwnedRealms(): void {
    let files: string[];
    try {
      files = fs.readdirSync(realmsDir(this.settings.dataDir));
    } catch (err) {
      this.log.warn({ err }, 'cannot list realm files');
      return;
    }
    for (const file of files) {
      if (!file.endsWith(REALM_FILE_SUFFIX)) continue;
      const name = file.slice(0, -REALM_FILE_SUFFIX.length);
      if (shardIndexFor(name, this.settings.shardCount) !== this.settings.shardIndex || !this.serves(name)) continue;
      try {
        this.realm(name);
      } catch (err) {
        this.log.error({ err, realm: name }, 'cannot open realm at start');
      }
    }
  }

  /**
   * Not an async function: each parked poll would hold its promise and the reaction that
   * follows dispatch's, about 110 bytes of the 1.2 KB a parked poll held (heap snapshots of
   * 2,000 parked polls), and a shard holds thousands while the young generation is scavenged.
   */
  handle(frame: RequestFrame): Promise<ResponseFrame> {
    if (this.testRoutes.has(frame.route) && !this.settings.testHooks) {
      return Promise.resolve(reply(frame.id, 404, { result: 'error', msg: 'Not found' }));
    }
    if (this.suspended.has(frame.realm)) {
      return Promise.resolve(reply(frame.id, 503, { result: 'error', msg: 'This organization is being restored; try again in a moment' }));
    }
    let realm: Realm | null;
    try {
      realm = this.realm(frame.realm);
    } catch (err) {
      // A realm file that cannot be opened (too new a schema, corruption) must not take the
      // other realms of this shard down with it: answer, log, and try again next request.
      this.log.error({ err, realm: frame.realm }, 'cannot open realm');
      return Promise.resolve(reply(frame.id, 503, { result: 'error', msg: 'This organization is unavailable; the server log says why' }));
    }
    if (!realm) {
      const err = errors.noSuchRealm();
      return Promise.resolve(reply(frame.id, err.status, err.toBody()));
    }
    return dispatch(realm, frame);
  }

  get dataDir(): string {
    return this.settings.dataDir;
  }

  /** A command of the management CLI, sent through the admin socket (src/admin/). */
  async admin(frame: AdminFrame): Promise<AdminResultFrame> {
    return { kind: 'admin-result', id: frame.id, result: await runAdminCommand(this, frame.request) };
  }

  async suspend(name: string): Promise<void> {
    this.suspended.add(name);
    const realm = this.realms.get(name);
    if (!realm) return;
    this.realms.delete(name);
    realm.eventQueues.releaseAll();
    // The woken polls answer, and writes already queued commit, before the file closes.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    realm.close();
    // The file is swapped next: the checkpointer's connection to it must be gone first.
    await realm.released;
    this.log.info({ realm: name }, 'realm closed for a restore');
  }

  resume(name: string): void {
    this.suspended.delete(name);
  }

  /**
   * The process's placement changed: realms no longer served here are closed without saving
   * their event queues (their clients register again wherever the realm goes), and realms now
   * served are opened. Resolves once the files of the realms let go are closed.
   */
  async serve(realms: string[] | null): Promise<void> {
    this.served = realms === null ? null : new Set(realms);
    const leaving = [...this.realms].filter(([name]) => !this.serves(name));
    for (const [name, realm] of leaving) {
      this.realms.delete(name);
      realm.eventQueues.removeAll();
    }
    // The woken polls finish in the next turns of the event loop; let them answer first.
    if (leaving.length > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const [name, realm] of leaving) {
      try {
        realm.close();
        this.log.info({ realm: name }, 'realm closed: no longer served by this process');
      } catch (err) {
        this.log.error({ err, realm: name }, 'realm let go, but its file did not close cleanly');
      }
    }
    // The file may be copied elsewhere and set aside next: no connection of ours may stay on it.
    await Promise.all(leaving.map(([, realm]) => realm.released));
    this.openOwnedRealms();
  }

  private serves(name: string): boolean {
    return this.served === null || this.served.has(name);
  }

  /** The figures only the shard knows, for the front end's metrics. */
  stats(): ShardStats {
    let eventQueues = 0;
    let parkedPolls = 0;
    for (const realm of this.realms.values()) {
      eventQueues += realm.eventQueues.size;
      parkedPolls += realm.eventQueues.parkedCount;
    }
    return {
      eventQueues,
      parkedPolls,
      openRealms: this.realms.size,
      render: this.renderer.stats(),
      snapshotsWritten: this.snapshots.written,
      snapshotsFailed: this.snapshots.failed,
    };
  }

  /** The client of a parked poll went away. */
  cancel(requestId: number): void {
    for (const realm of this.realms.values()) if (realm.eventQueues.cancel(requestId)) return;
  }

  /** The shard's last commit, carried by the answers sent now (src/wire/protocol.ts DurableAfter). */
  get durableAfter(): number | undefined {
    return this.syncThread && this.syncThread.lastTicket > 0 ? this.syncThread.lastTicket : undefined;
  }

  /**
   * Answers every parked poll, saves the event queues and closes every realm database (a clean
   * close also checkpoints the WAL). The answers leave before the `closed` frame.
   */
  async close(): Promise<void> {
    for (const realm of this.realms.values()) realm.eventQueues.releaseAll();
    // The woken polls finish in the next turns of the event loop; let them answer first.
    await new Promise((resolve) => setImmediate(resolve));
    for (const realm of this.realms.values()) realm.close();
    this.realms.clear();
    await this.checkpointer.close();
    await this.syncThread?.close();
    await this.renderer.close();
  }

  realm(name: string): Realm | null {
    const open = this.realms.get(name);
    if (open) return open;
    if (!REALM_NAME_PATTERN.test(name) || !this.serves(name)) return null;
    const file = realmFile(this.settings.dataDir, name);
    // Not cached when missing: `manage create-realm` may add it while we run.
    if (!fs.existsSync(file)) return null;
    const realm = new Realm(name, file, {
      externalHost: this.settings.externalHost,
      isDefault: name === DEFAULT_REALM,
      log: this.log,
      renderer: this.renderer,
      deleteTopic: this.settings.deleteTopic,
      // stream-writes
      webPublicStreamsEnabled: this.settings.webPublicStreamsEnabled,
      durations: this.settings.durations,
      recentRowsMinRecipients: this.settings.recentRowsMinRecipients,
      files: this.settings.files,
      sessions: this.settings.sessions,
      snapshotDir: snapshotsDir(this.settings.dataDir, name),
      checkpointer: this.checkpointer,
      ...(this.syncThread ? { syncThread: this.syncThread } : {}),
      contractChecks: this.settings.contractChecks,
      ...(this.settings.contractChecks ? { eventCheck: checkPublishedEvent } : {}),
    });
    this.realms.set(name, realm);
    const scheduler = new ScheduledMessageSender(realm, systemClock, this.log);
    realm.own(scheduler);
    scheduler.arm();
    // typing: expires unrenewed `start`s (SPEC §States "Typing"); actions reach it as realm.typing
    const typing = new TypingActor(realm, realm.clock, realm.durations.typingStartedExpiryMs);
    realm.own(typing);
    realm.typing = typing;
    // stream-prefs: message retention (SPEC Stream message_retention_days)
    const retention = new RetentionActor(realm, realm.clock, this.log, this.settings.retention);
    realm.own(retention);
    retention.arm();
    // Unclaimed uploads expire (SPEC States "Attachment")
    const unclaimedUploads = new UnclaimedUploadActor(realm, realm.clock, this.log);
    realm.own(unclaimedUploads);
    unclaimedUploads.arm();
    // Presence is kept in memory and flushed periodically (issue 9 "Presence")
    const presence = new PresenceFlusher(realm, realm.clock, this.log, this.settings.presenceFlushIntervalMs);
    realm.own(presence);
    presence.arm();
    // Members whose account passed the waiting period join `@role:fullmembers`
    const fullMembers = new FullMembersActor(realm, realm.clock, this.log, this.settings.fullMembersIntervalMs);
    realm.own(fullMembers);
    fullMembers.arm();
    // New per-person message rows move into the large table in batches (migration 21)
    const recentRows = new RecentRowsMover(realm, realm.clock, this.log, this.settings.recentRowsIntervalMs);
    realm.own(recentRows);
    recentRows.arm();
    // Periodic snapshots (BACKUP_INTERVAL), by the thread that owns the file
    const { intervalMs, keep } = this.settings.snapshots;
    if (intervalMs > 0) {
      const snapshots = new SnapshotActor(
        realm,
        systemClock,
        this.log,
        intervalMs,
        snapshotsDir(this.settings.dataDir, name),
        keep,
        this.snapshots,
      );
      realm.own(snapshots);
      snapshots.arm();
    }
    this.log.info({ realm: name }, 'realm opened');
    return realm;
  }
}
