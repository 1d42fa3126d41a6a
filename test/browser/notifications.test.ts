import t from 'tap';
import type { Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, createStream, twoPeopleInAStream } from './harness';

const STREAM = 'notification tests';
const LOUD = 'loud stream';

/**
 * Stand-ins for what a headless browser cannot show or play: Notification (granted, recording
 * each one), AudioContext (counting tones), and a page that believes it is in the background.
 * A string, so the test compiles without the DOM library; it runs in the page.
 */
const FAKES = `(() => {
  const page = globalThis;
  page.seen = { notes: [], tones: 0, asks: 0 };
  class FakeNotification {
    static permission = 'granted';
    static requestPermission() { page.seen.asks++; FakeNotification.permission = 'granted'; return Promise.resolve('granted'); }
    constructor(title, options) { page.seen.notes.push({ title, body: options.body }); }
    addEventListener() {}
    close() {}
  }
  page.Notification = FakeNotification;
  class FakeAudioContext {
    constructor() { this.currentTime = 0; this.destination = {}; page.seen.tones++; }
    createOscillator() { return { frequency: { value: 0 }, connect: (next) => next, addEventListener() {}, start() {}, stop() {} }; }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next) => next }; }
    close() { return Promise.resolve(); }
  }
  page.AudioContext = FakeAudioContext;
  document.hasFocus = () => false;
})()`;

interface Seen {
  notes: { title: string; body: string }[];
  tones: number;
  asks: number;
}

type TitleOf = { document: { title: string } };

/** Waits until the tab's title starts with `prefix` (or, with `absent`, until it does not). */
async function titleStarts(page: Page, prefix: string, absent = false): Promise<void> {
  // Polled on a timer, not on animation frames, which a browser may hold back for a window it draws rarely.
  await page.waitForFunction(
    ([start, not]) => (globalThis as unknown as TitleOf).document.title.startsWith(start) !== not,
    [prefix, absent] as const,
    { polling: 100 },
  );
}

function seen(page: Page): Promise<Seen> {
  return page.evaluate<Seen>('globalThis.seen');
}

/** Waits until the page has shown `count` notifications, and returns them. */
async function notesAfter(page: Page, count: number): Promise<Seen['notes']> {
  await page.waitForFunction((wanted) => (globalThis as unknown as { seen: Seen }).seen.notes.length >= wanted, count, { polling: 100 });
  return (await seen(page)).notes;
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('new messages are noticed: tab title, icon badge, desktop notifications and a sound', async (t) => {
    const { server, problems, ada, bo, boPage } = await twoPeopleInAStream(t, STREAM);
    const adaApi = new ApiClient(server.baseUrl, ada);
    const boApi = new ApiClient(server.baseUrl, bo);
    await createStream(server, LOUD, [ada, bo]);
    await boPage.evaluate(FAKES);
    await boPage.evaluate((hash) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
    }, '#narrow/is/starred');

    t.test('a direct message notifies with its sender and text, and sounds', async (t) => {
      // Whatever the set-up left unread (notices of the new stream) is read first, so the counts below are this test's.
      await boApi.post('/mark_all_as_read');
      await titleStarts(boPage, '(', true);
      await adaApi.post('/messages', { type: 'direct', to: JSON.stringify([bo.id]), content: 'Lunch at **noon**?' });
      t.strictSame(await notesAfter(boPage, 1), [{ title: ada.fullName, body: 'Lunch at noon?' }]);
      t.equal((await seen(boPage)).tones, 1, 'one tone');
    });

    t.test('the tab title and the icon carry the unread count', async (t) => {
      await titleStarts(boPage, '(1) ');
      t.pass(`title: ${await boPage.title()}`);
      const icon = await boPage.locator('link[rel~="icon"]').getAttribute('href');
      t.match(icon ?? '', /^data:image\/png;base64,/, 'the icon is the drawn badge');
    });

    t.test('a stream message notifies only when the stream asks for it; a mention always does', async (t) => {
      await adaApi.post('/messages', { type: 'stream', to: STREAM, topic: 'quiet', content: 'Nothing special' });
      await titleStarts(boPage, '(2) ');
      t.equal((await seen(boPage)).notes.length, 1, 'no notification for an ordinary stream message');
      await adaApi.post('/messages', { type: 'stream', to: STREAM, topic: 'quiet', content: `Look @**${bo.fullName}**` });
      t.strictSame((await notesAfter(boPage, 2))[1], { title: `${ada.fullName} (#${STREAM} > quiet)`, body: `Look @${bo.fullName}` });
      const loudId = Number((await boApi.get('/get_stream_id', { stream: LOUD })).body['stream_id']);
      const changed = await boApi.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: loudId, property: 'desktop_notifications', value: true }],
      });
      t.equal(changed.status, 200);
      await adaApi.post('/messages', { type: 'stream', to: LOUD, topic: 'alerts', content: 'Server down' });
      t.strictSame((await notesAfter(boPage, 3))[2], { title: `${ada.fullName} (#${LOUD} > alerts)`, body: 'Server down' });
    });

    t.test('turning desktop notifications and sounds off is followed', async (t) => {
      await boApi.call('PATCH', '/settings', { enable_desktop_notifications: false, enable_sounds: false });
      const before = await seen(boPage);
      await adaApi.post('/messages', { type: 'direct', to: JSON.stringify([bo.id]), content: 'Still there?' });
      await titleStarts(boPage, '(5) ');
      const after = await seen(boPage);
      t.equal(after.notes.length, before.notes.length, 'no new notification');
      t.equal(after.tones, before.tones, 'no new tone');
    });

    t.test('marking everything read clears the title count and the badge', async (t) => {
      await boApi.post('/mark_all_as_read');
      await titleStarts(boPage, '(', true);
      t.equal(await boPage.locator('link[rel~="icon"][href^="data:"]').count(), 0, 'the badge is gone');
    });

    t.test('the offer to turn notifications on is made once', async (t) => {
      await boApi.call('PATCH', '/settings', { enable_desktop_notifications: true });
      await boPage.evaluate("globalThis.Notification.permission = 'default'");
      // The offer shows when the snapshot next changes; a status update is one such change.
      await boApi.post('/users/me/status', { status_text: 'here' });
      const offer = boPage.getByRole('region', { name: 'Desktop notifications', exact: true });
      await offer.getByRole('button', { name: 'Turn on desktop notifications', exact: true }).click();
      await offer.waitFor({ state: 'detached' });
      t.equal((await seen(boPage)).asks, 1, 'the browser was asked once');
      await boPage.evaluate("globalThis.Notification.permission = 'default'");
      await boApi.post('/users/me/status', { status_text: 'still here' });
      // Once the people list shows the new status, the page has re-rendered with the same permission.
      await boPage.getByRole('complementary', { name: 'People', exact: true }).getByText('still here', { exact: true }).waitFor();
      t.equal(await offer.count(), 0, 'and not offered again');
    });

    t.test('the page had no CSP violation or uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
