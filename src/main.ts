import fs from 'node:fs';
import { AdminServer, adminSocketPath } from './admin/server';
import { ConfigError, loadConfig, type Config } from './config';
import { FrontEnd } from './http/server';
import { createLogger } from './log';
import { ShardPool } from './realm/router';
import { ensureDefaultRealm } from './realm/bootstrap';
import { MetricsListener } from './metrics/listener';
import { ServerMetrics } from './metrics/metrics';
import { PlacementError, ServedRealms, servingStatusFile, writeServingStatus } from './realm/placement';
import { DEFAULT_REALM } from './wire/realm-names';

// How long a placement change waits for the shards to close the realms they let go.
const SERVE_CONFIRM_TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  let config: Config;
  let served: ServedRealms;
  try {
    config = loadConfig();
    served = new ServedRealms(config.placement);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof PlacementError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel, config.logFormat);

  // A process that does not serve the default realm neither creates it nor writes owner.ini.
  if (served.serves(DEFAULT_REALM)) {
    const bootstrap = await ensureDefaultRealm(config);
    log.info({ ownerCredentials: bootstrap.ownerIniPath, created: bootstrap.created }, `owner credentials: ${bootstrap.ownerIniPath}`);
  }
  log.info({ realms: served.list ?? 'all' }, 'serving realms');
  log.info({ config }, 'effective configuration');

  const shards = new ShardPool(
    {
      dataDir: config.dataDir,
      externalHost: config.externalHost,
      logLevel: config.logLevel,
      logFormat: config.logFormat,
      snapshots: config.snapshots,
      testHooks: config.testHooks,
      testShardLoadMs: config.testShardLoadMs,
      contractChecks: config.contractChecks,
      renderThreads: config.renderThreads,
      durations: config.durations,
      deleteTopic: config.deleteTopic,
      retention: config.retention,
      // stream-writes
      webPublicStreamsEnabled: config.webPublicStreamsEnabled,
      files: config.files,
      presenceFlushIntervalMs: config.presenceFlushIntervalMs,
      fullMembersIntervalMs: config.fullMembersIntervalMs,
      recentRowsIntervalMs: config.recentRowsIntervalMs,
      recentRowsMinRecipients: config.recentRowsMinRecipients,
      sessions: config.sessions,
      servedRealms: served.list,
    },
    config.shards,
    config.shardRequestTimeoutMs,
    log,
    config.shardQueueLimit,
    { watchdogMs: config.shardWatchdogMs, heapLimitMb: config.shardHeapLimitMb },
  );
  // The management CLI's way in (issue 23), open before the public port so that a CLI run once
  // the server answers finds it; the server serves its API without it.
  const admin = new AdminServer(adminSocketPath(config.dataDir), (request) => shards.admin(request), log);
  const adminListening = await admin.listen().then(
    () => true,
    (err: unknown) => {
      log.error({ err }, 'admin socket unavailable; the management CLI will work on the files');
      return false;
    },
  );
  const metrics = config.metricsPort === null ? null : new ServerMetrics(shards, config.dataDir);
  const frontEnd = new FrontEnd(config, shards, log, served, metrics);
  const port = await frontEnd.listen();
  log.info({ host: config.host, port, shards: config.shards }, `listening on http://${config.host}:${port}`);
  const reportServing = (): void =>
    writeServingStatus(config.dataDir, { pid: process.pid, realms: served.list, placementDigest: served.digest });
  reportServing();
  let metricsListener: MetricsListener | null = null;
  if (metrics && config.metricsPort !== null) {
    metricsListener = new MetricsListener(metrics, log);
    const metricsPort = await metricsListener.listen(config.metricsPort);
    log.info({ metricsPort }, `metrics on http://127.0.0.1:${metricsPort}/metrics`);
  }

  // SIGHUP: read the placement file again; the front end refuses realms no longer placed here
  // at once, and serving.json reports the change once the shards have closed their files.
  let reloading = Promise.resolve();
  const reload = async (): Promise<void> => {
    try {
      served.reload();
    } catch (err) {
      log.error({ err }, 'placement not reloaded: keeping the previous one');
      return;
    }
    // Unconfirmed, serving.json stays as it was: a realm file may still be open here.
    if (!(await shards.serve(served.list, SERVE_CONFIRM_TIMEOUT_MS))) return log.error('a shard did not confirm the new placement');
    reportServing();
    log.info({ realms: served.list ?? 'all' }, 'placement reloaded');
  };
  process.on('SIGHUP', () => {
    reloading = reloading.then(reload).catch((err: unknown) => log.error({ err }, 'placement reload failed'));
  });

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing in-flight requests');
    void (async () => {
      await frontEnd.stop();
      if (adminListening) await admin.close();
      await metricsListener?.close();
      // The shards answer parked polls, save their event queues and close their realm files.
      await shards.close();
      await frontEnd.drained();
      fs.rmSync(servingStatusFile(config.dataDir), { force: true });
      log.info('stopped');
      log.flush();
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
