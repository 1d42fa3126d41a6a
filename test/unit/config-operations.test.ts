import t from 'tap';
import { loadConfig } from '../../src/config';

// The operations settings (issue 23): the metrics port, periodic snapshots and the log format.

t.test('metrics off, snapshots off, JSON logs off a terminal: the defaults', async (t) => {
  const config = loadConfig({});
  // tap runs each test file with its stdout on a pipe, not a terminal
  t.strictSame([config.metricsPort, config.snapshots, config.logFormat], [null, { intervalMs: 0, keep: 24 }, 'json']);
});

t.test('set values', async (t) => {
  const config = loadConfig({ METRICS_PORT: '9100', BACKUP_INTERVAL: '0.25', BACKUP_KEEP: '3', LOG_FORMAT: 'pretty' });
  t.strictSame([config.metricsPort, config.snapshots, config.logFormat], [9100, { intervalMs: 250, keep: 3 }, 'pretty']);
  t.strictSame(loadConfig({ BACKUP_INTERVAL: '3600' }).snapshots, { intervalMs: 3_600_000, keep: 24 }, 'seconds, as the name says');
});

t.test('every bad value gets its own line', async (t) => {
  t.throws(() => loadConfig({ METRICS_PORT: '0', BACKUP_INTERVAL: '-1', BACKUP_KEEP: '0', LOG_FORMAT: 'xml' }), {
    message: /LOG_FORMAT="xml".*\n.*METRICS_PORT="0".*\n.*BACKUP_INTERVAL="-1".*\n.*BACKUP_KEEP="0"/,
  });
  t.throws(() => loadConfig({ METRICS_PORT: '65536' }), { message: /METRICS_PORT="65536"/ });
});
