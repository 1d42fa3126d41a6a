import { AdminServer, adminSocketPath } from './admin/server';
import { ConfigError, loadConfig, type Config } from './config';
import { FrontEnd } from './http/server';
import { createLogger } from './log';
import { ShardPool } from './realm/router';
import { ensureDefaultRealm } from './realm/bootstrap';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);

  const bootstrap = await ensureDefaultRealm(config);
  log.info({ ownerCredentials: bootstrap.ownerIniPath, created: bootstrap.created }, `owner credentials: ${bootstrap.ownerIniPath}`);
  log.info({ config }, 'effective configuration');

  const shards = new ShardPool(
    {
      dataDir: config.dataDir,
      externalHost: config.externalHost,
      logLevel: config.logLevel,
      testHooks: config.testHooks,
      renderThreads: config.renderThreads,
      durations: config.durations,
      deleteTopic: config.deleteTopic,
      retention: config.retention,
      // stream-writes
      webPublicStreamsEnabled: config.webPublicStreamsEnabled,
      files: config.files,
      presenceFlushIntervalMs: config.presenceFlushIntervalMs,
      fullMembersIntervalMs: config.fullMembersIntervalMs,
      sessions: config.sessions,
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
  const frontEnd = new FrontEnd(config, shards, log);
  const port = await frontEnd.listen();
  log.info({ host: config.host, port, shards: config.shards }, `listening on http://${config.host}:${port}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing in-flight requests');
    void (async () => {
      await frontEnd.stop();
      if (adminListening) await admin.close();
      // The shards answer parked polls, save their event queues and close their realm files.
      await shards.close();
      await frontEnd.drained();
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
