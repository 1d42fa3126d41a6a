import t from 'tap';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, messageItem, sendToStream, statusShowing, twoPeopleInAStream } from './harness';

const STREAM = 'restarts';
const TOPIC = 'still here';
// The client retries with a backoff of up to 30 s; a restart here takes a few seconds.
const RECONNECT_TIMEOUT_MS = 45_000;

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('a server restart shows "Reconnecting…", then the live view resumes without losing a message', async (t) => {
    const { server, problems, ada, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const boStarted = await boPage.evaluate<number>('performance.timeOrigin');

    const before = `Before the restart ${Date.now()}`;
    await sendToStream(adaPage, STREAM, TOPIC, before);
    await messageItem(boPage, before).waitFor();

    await server.stop();
    await statusShowing(boPage, 'Reconnecting…').waitFor();
    await statusShowing(adaPage, 'Reconnecting…').waitFor();
    t.pass('both pages show that they are reconnecting');

    await server.start();
    // Sent while the pages are still waiting to retry: they learn of it from their saved queues.
    const whileAway = `While the pages were away ${Date.now()}`;
    const sent = await new ApiClient(server.baseUrl, ada).post('/messages', {
      type: 'stream',
      to: STREAM,
      topic: TOPIC,
      content: whileAway,
    });
    t.equal(sent.status, 200, 'the restarted server takes a message');

    await statusShowing(boPage, 'Reconnecting…').waitFor({ state: 'hidden', timeout: RECONNECT_TIMEOUT_MS });
    await statusShowing(adaPage, 'Reconnecting…').waitFor({ state: 'hidden', timeout: RECONNECT_TIMEOUT_MS });
    t.pass('both pages are live again');

    const after = `After the restart ${Date.now()}`;
    await sendToStream(adaPage, STREAM, TOPIC, after);
    for (const content of [before, whileAway, after]) {
      await messageItem(boPage, content).waitFor();
      await messageItem(adaPage, content).waitFor();
    }
    t.pass('every message shows in both pages');
    t.equal(await boPage.evaluate<number>('performance.timeOrigin'), boStarted, 'the page did not reload');
    t.strictSame(problems.problems, [], 'no CSP violation or uncaught error');
  });
}
