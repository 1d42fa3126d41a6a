import t from 'tap';
import { loadConfig, SPEC_DURATIONS_MS } from '../../src/config';

t.test('the duration defaults are the spec values (SPEC §Limits)', async (t) => {
  t.strictSame(SPEC_DURATIONS_MS, {
    EVENT_QUEUE_TIMEOUT_MS: 600_000,
    HEARTBEAT_INTERVAL_MS: 60_000,
    TYPING_STARTED_WAIT_MS: 10_000,
    TYPING_STOPPED_WAIT_MS: 5_000,
    TYPING_STARTED_EXPIRY_MS: 15_000,
  });
  const config = loadConfig({});
  t.strictSame(config.durations, {
    eventQueueTimeoutMs: 600_000,
    heartbeatIntervalMs: 60_000,
    typingStartedWaitMs: 10_000,
    typingStoppedWaitMs: 5_000,
    typingStartedExpiryMs: 15_000,
  });
  t.equal(config.port, 9991);
  t.equal(config.host, '127.0.0.1');
  t.equal(config.externalHost, 'localhost:9991');
  t.ok(config.shards >= 1);
  t.equal(config.testHooks, false);
});

t.test('every bad value gets its own line', async (t) => {
  t.throws(() => loadConfig({ PORT: 'abc', SHARDS: '0', LOG_LEVEL: 'loud' }), {
    message: /PORT="abc".*\n.*SHARDS="0".*\n.*LOG_LEVEL="loud"/,
  });
});

t.test('the external host follows the port unless it is set', async (t) => {
  t.equal(loadConfig({ PORT: '8080' }).externalHost, 'localhost:8080');
  t.equal(loadConfig({ PORT: '8080', EXTERNAL_HOST: 'Chat.Example.com' }).externalHost, 'chat.example.com');
  t.throws(() => loadConfig({ EXTERNAL_HOST: 'http://x' }), { message: /EXTERNAL_HOST/ });
});

t.test('durations can be shortened for tests', async (t) => {
  t.equal(loadConfig({ HEARTBEAT_INTERVAL_MS: '50' }).durations.heartbeatIntervalMs, 50);
});

t.test('presence is flushed every minute unless configured', async (t) => {
  t.equal(loadConfig({}).presenceFlushIntervalMs, 60_000);
  t.equal(loadConfig({ PRESENCE_FLUSH_INTERVAL_MS: '25' }).presenceFlushIntervalMs, 25);
  t.throws(() => loadConfig({ PRESENCE_FLUSH_INTERVAL_MS: '0' }), { message: /PRESENCE_FLUSH_INTERVAL_MS/ });
});

t.test('members past the waiting period are promoted daily unless configured', async (t) => {
  t.equal(loadConfig({}).fullMembersIntervalMs, 24 * 60 * 60_000);
  t.equal(loadConfig({ FULL_MEMBERS_INTERVAL_MS: '25' }).fullMembersIntervalMs, 25);
  t.throws(() => loadConfig({ FULL_MEMBERS_INTERVAL_MS: '0' }), { message: /FULL_MEMBERS_INTERVAL_MS/ });
});

t.test('the rows of messages to 500 people or more move into the large table every 30 s unless configured', async (t) => {
  t.equal(loadConfig({}).recentRowsIntervalMs, 30_000);
  t.equal(loadConfig({ RECENT_ROWS_INTERVAL_MS: '25' }).recentRowsIntervalMs, 25);
  t.throws(() => loadConfig({ RECENT_ROWS_INTERVAL_MS: '0' }), { message: /RECENT_ROWS_INTERVAL_MS/ });
  t.equal(loadConfig({}).recentRowsMinRecipients, 500);
  t.equal(loadConfig({ RECENT_ROWS_MIN_RECIPIENTS: '1' }).recentRowsMinRecipients, 1);
  t.throws(() => loadConfig({ RECENT_ROWS_MIN_RECIPIENTS: '0' }), { message: /RECENT_ROWS_MIN_RECIPIENTS/ });
});

t.test('web sessions end after two weeks idle and failed logins count for 30 minutes unless configured', async (t) => {
  t.strictSame(loadConfig({}).sessions, { idleMs: 14 * 24 * 60 * 60_000, loginFailureLimit: 5, loginFailureWindowMs: 30 * 60_000 });
  t.equal(loadConfig({ SESSION_IDLE_MS: '60000' }).sessions.idleMs, 60_000);
  t.equal(loadConfig({ LOGIN_FAILURE_WINDOW_MS: '1000' }).sessions.loginFailureWindowMs, 1000);
  t.throws(() => loadConfig({ SESSION_IDLE_MS: '0' }), { message: /SESSION_IDLE_MS/ });
});

t.test('rate limits are the public API’s unless configured (api-notes §Limits)', async (t) => {
  t.strictSame(loadConfig({}).rateLimits, {
    enabled: true,
    userPerWindow: 200,
    addressPerWindow: 100,
    filesPerWindow: 1000,
    windowMs: 60_000,
    loginFailuresPerAddress: 20,
    loginFailureWindowMs: 30 * 60_000,
  });
  const configured = loadConfig({
    RATE_LIMITING: '0',
    RATE_LIMIT_USER_PER_MINUTE: '5',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '3',
    RATE_LIMIT_FILES_PER_MINUTE: '7',
    RATE_LIMIT_WINDOW_MS: '1000',
    LOGIN_FAILURE_ADDRESS_LIMIT: '2',
    LOGIN_FAILURE_WINDOW_MS: '5000',
  });
  t.strictSame(configured.rateLimits, {
    enabled: false,
    userPerWindow: 5,
    addressPerWindow: 3,
    filesPerWindow: 7,
    windowMs: 1000,
    loginFailuresPerAddress: 2,
    loginFailureWindowMs: 5000,
  });
  t.throws(() => loadConfig({ RATE_LIMIT_USER_PER_MINUTE: '0' }), { message: /RATE_LIMIT_USER_PER_MINUTE/ });
});

t.test('a shard queues 1000 requests before refusing more unless configured', async (t) => {
  t.equal(loadConfig({}).shardQueueLimit, 1000);
  t.equal(loadConfig({ SHARD_QUEUE_LIMIT: '2' }).shardQueueLimit, 2);
  t.throws(() => loadConfig({ SHARD_QUEUE_LIMIT: '0' }), { message: /SHARD_QUEUE_LIMIT/ });
});

t.test('forwarded headers are trusted from loopback unless TRUSTED_PROXIES says otherwise', async (t) => {
  t.strictSame(loadConfig({}).trustedProxies, ['127.0.0.0/8', '::1']);
  t.strictSame(loadConfig({ TRUSTED_PROXIES: 'none' }).trustedProxies, []);
  t.strictSame(loadConfig({ TRUSTED_PROXIES: '10.1.2.3, 192.168.0.0/16,2001:db8::/32' }).trustedProxies, [
    '10.1.2.3',
    '192.168.0.0/16',
    '2001:db8::/32',
  ]);
  for (const bad of ['proxy.example', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/8/8', '10.0.0.1,', '*']) {
    t.throws(() => loadConfig({ TRUSTED_PROXIES: bad }), { message: /TRUSTED_PROXIES/ }, bad);
  }
});
