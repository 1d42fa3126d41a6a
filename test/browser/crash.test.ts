import t from 'tap';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, messageItem, sendToStream, twoPeopleInAStream } from './harness';

const STREAM = 'crashes';
const TOPIC = 'after a crash';
// The client's first retries come after 1 s, 2 s, 4 s …; a shard restarts within a second or two.
const RECOVERY_TIMEOUT_MS = 45_000;

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('after a shard crash the page re-registers and re-fetches its view, without reloading or losing a message', async (t) => {
    const { server, problems, ada, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const boStarted = await boPage.evaluate<number>('performance.timeOrigin');

    const before = `Before the crash ${Date.now()}`;
    await sendToStream(adaPage, STREAM, TOPIC, before);
    await messageItem(boPage, before).waitFor();

    // The crash loses every event queue of the realm (DESIGN "Crash isolation").
    const crash = await server.admin.post('/__test__/crash_shard');
    t.equal(crash.status, 503, 'the shard died');
    const during = `Sent while the queues were gone ${Date.now()}`;
    // The restarted shard may still be opening the realm (slowly, on a machine busy with other
    // tests): 503 says nothing was done, so retry as a client would, for a few seconds at most.
    const send = () => new ApiClient(server.baseUrl, ada).post('/messages', { type: 'stream', to: STREAM, topic: TOPIC, content: during });
    let sent = await send();
    for (let retry = 0; sent.status === 503 && retry < 20; retry++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      sent = await send();
    }
    t.equal(sent.status, 200, 'the restarted shard takes a message');

    await messageItem(boPage, during).waitFor({ timeout: RECOVERY_TIMEOUT_MS });
    t.pass('the message no queue carried shows after the page re-fetched its view');

    const after = `After the crash ${Date.now()}`;
    await sendToStream(adaPage, STREAM, TOPIC, after);
    await messageItem(boPage, after).waitFor({ timeout: RECOVERY_TIMEOUT_MS });
    t.pass('the new queue delivers live again');
    for (const content of [before, during, after]) t.equal(await messageItem(boPage, content).count(), 1, `"${content}" shows once`);
    t.equal(await boPage.evaluate<number>('performance.timeOrigin'), boStarted, 'the page did not reload');
    t.strictSame(problems.problems, [], 'no CSP violation or uncaught error');
  });
}
