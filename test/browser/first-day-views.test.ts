// A team's first day (issue "Bugs" 2, 3, 4, 6, 8): links into the app, topics that move, the
// image viewer, long words, and the compose box following the conversation.
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, createStream, messageFeed, messageItem, sendToStream, solidPng, twoPeopleInAStream } from './harness';

const STREAM = 'first day';
const OTHER_STREAM = 'elsewhere';

function viewTitle(page: Page): Locator {
  return page.getByRole('heading', { level: 1 });
}

async function titleIs(page: Page, title: string): Promise<void> {
  await viewTitle(page)
    .filter({ hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .waitFor();
}

function hashOf(page: Page): string {
  return new URL(page.url()).hash;
}

async function streamId(client: ApiClient, name: string): Promise<number> {
  const answer = await client.get('/get_stream_id', { stream: name });
  return Number(answer.body['stream_id']);
}

async function sendByApi(client: ApiClient, stream: string, topic: string, content: string): Promise<number> {
  const sent = await client.post('/messages', { type: 'stream', to: stream, topic, content });
  if (sent.status !== 200) throw new Error(`cannot send: ${sent.text}`);
  return Number(sent.body['id']);
}

async function openHash(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
}

function field(page: Page, label: string): Locator {
  return page.getByLabel(label, { exact: true });
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('views, links and the compose box on a first day', async (t) => {
    const { server, problems, ada, bo, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    await createStream(server, OTHER_STREAM, [ada, bo]);
    const adaApi = new ApiClient(server.baseUrl, ada);
    const streamIdHere = await streamId(adaApi, STREAM);
    const otherStreamId = await streamId(adaApi, OTHER_STREAM);

    t.test('stream, topic and conversation links in a message open their view in place; back and forward work', async (t) => {
      const text = `See #**${STREAM}**, #**${STREAM}>the plan** and [a chat with Ada](/#narrow/dm/${ada.id}-Ada) ${Date.now()}`;
      await sendByApi(adaApi, STREAM, 'the plan', text);
      const message = messageItem(boPage, 'a chat with Ada');
      await message.waitFor();
      const pagesBefore = boPage.context().pages().length;

      await message.getByRole('link', { name: `#${STREAM}`, exact: true }).click();
      await titleIs(boPage, `#${STREAM}`);
      t.equal(hashOf(boPage), `#narrow/stream/${streamIdHere}-first-day`, "the address is the link's");
      await message.getByRole('link', { name: `#${STREAM} > the plan`, exact: true }).click();
      await titleIs(boPage, `#${STREAM} > the plan`);
      t.equal(hashOf(boPage), `#narrow/stream/${streamIdHere}-first-day/topic/the.20plan`, "the address is the topic link's");
      await messageItem(boPage, 'a chat with Ada').getByRole('link', { name: 'a chat with Ada', exact: true }).click();
      await titleIs(boPage, ada.fullName);
      t.equal(boPage.context().pages().length, pagesBefore, 'no tab was opened');

      await boPage.goBack();
      await titleIs(boPage, `#${STREAM} > the plan`);
      await boPage.goBack();
      await titleIs(boPage, `#${STREAM}`);
      await boPage.goForward();
      await titleIs(boPage, `#${STREAM} > the plan`);
      t.pass('back and forward go through the views');

      // A page of its own: the same page would only change its hash, not load.
      const fresh = await boPage.context().newPage();
      problems.watch(fresh, 'Bo, second page');
      await fresh.goto(`${server.baseUrl}/#narrow/stream/${streamIdHere}-first-day/topic/the.20plan`);
      await titleIs(fresh, `#${STREAM} > the plan`);
      t.pass('a server-rendered address opens its view when loaded');
      await fresh.close();
    });

    t.test('a topic resolved, renamed or moved by someone else takes its open view along', async (t) => {
      const text = `Is this done ${Date.now()}`;
      const id = await sendByApi(adaApi, STREAM, 'to resolve', text);
      await openHash(boPage, `#narrow/stream/${streamIdHere}/topic/to.20resolve`);
      await messageItem(boPage, text).waitFor();

      const resolved = await adaApi.call('PATCH', `/messages/${id}`, { topic: '✔ to resolve', propagate_mode: 'change_all' });
      t.equal(resolved.status, 200, 'Ada resolves the topic');
      await titleIs(boPage, `#${STREAM} > ✔ to resolve`);
      await messageItem(boPage, text).waitFor();
      t.equal(hashOf(boPage), `#narrow/stream/${streamIdHere}/topic/.E2.9C.94.20to.20resolve`, 'the address follows');

      const reply = `Yes it is ${Date.now()}`;
      await boPage.getByRole('textbox', { name: 'Message', exact: true }).fill(reply);
      await boPage.getByRole('button', { name: 'Send', exact: true }).click();
      await messageItem(boPage, reply).waitFor();
      const newest = await adaApi.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
      const [last] = newest.body['messages'] as { subject: string; content: string }[];
      t.equal(last?.subject, '✔ to resolve', 'the reply went to the resolved topic, not a new unresolved one');

      const moved = await server.admin.call('PATCH', `/messages/${id}`, {
        topic: 'moved away',
        stream_id: otherStreamId,
        propagate_mode: 'change_all',
      });
      t.equal(moved.status, 200, 'the owner moves the topic to another stream');
      await titleIs(boPage, `#${OTHER_STREAM} > moved away`);
      await messageItem(boPage, text).waitFor();
      t.equal(hashOf(boPage), `#narrow/stream/${otherStreamId}/topic/moved.20away`, 'the address follows the move');
    });

    t.test('an inline image opens in a viewer over the page, with a link to the original; Escape closes it', async (t) => {
      await field(adaPage, 'Stream').fill(STREAM);
      await field(adaPage, 'Topic').fill('pictures');
      const box = adaPage.getByRole('textbox', { name: 'Message', exact: true });
      await box.fill('');
      await adaPage
        .locator('input[type="file"]')
        .first()
        .setInputFiles({ name: 'blue-square.png', mimeType: 'image/png', buffer: solidPng(40, [30, 30, 200]) });
      await adaPage.waitForFunction((element: { value: string }) => element.value.includes('/user_uploads/'), await box.elementHandle());
      await adaPage.getByRole('button', { name: 'Send', exact: true }).click();
      await openHash(boPage, `#narrow/stream/${streamIdHere}/topic/pictures`);
      const image = messageFeed(boPage).locator('.message_inline_image img').last();
      await image.click();
      const viewer = boPage.getByRole('dialog', { name: 'Image', exact: true });
      await viewer.getByRole('img').waitFor();
      t.equal(new URL(boPage.url()).pathname, '/', 'the app stays on the page');
      const original = await viewer.getByRole('link', { name: 'Open original', exact: true }).getAttribute('href');
      t.match(original ?? '', /^\/user_uploads\/.+blue-square\.png$/, 'the link points at the uploaded file');
      await boPage.keyboard.press('Escape');
      await viewer.waitFor({ state: 'hidden' });
      t.pass('Escape closes the viewer');
    });

    t.test('a long URL or unbroken word wraps inside the message column', async (t) => {
      const word = 'x'.repeat(400);
      const text = `https://example.com/${'very-long-path-segment/'.repeat(20)} ${word}`;
      await sendByApi(adaApi, STREAM, 'wide', text);
      await openHash(boPage, `#narrow/stream/${streamIdHere}/topic/wide`);
      await messageItem(boPage, word).waitFor();
      const sizes = await messageFeed(boPage).evaluate((element: { scrollWidth: number; clientWidth: number }) => [
        element.scrollWidth,
        element.clientWidth,
      ]);
      t.ok((sizes[0] ?? 0) <= (sizes[1] ?? 0), `the feed does not scroll sideways (scroll ${sizes[0]}, shown ${sizes[1]})`);
    });

    t.test('the compose box follows the view and the message last clicked', async (t) => {
      const direct = await adaApi.post('/messages', { type: 'direct', to: JSON.stringify([bo.id]), content: `Psst ${Date.now()}` });
      t.equal(direct.status, 200, 'Ada writes to Bo directly');
      await openHash(boPage, `#narrow/dm/${ada.id}`);
      await messageItem(boPage, 'Psst').waitFor();
      t.equal(await field(boPage, 'To').inputValue(), ada.email, 'a direct conversation fills To');

      await openHash(boPage, '#narrow/all');
      await titleIs(boPage, 'All messages');
      t.equal(await field(boPage, 'Stream').inputValue(), '', 'All messages starts with no stream');
      t.equal(await field(boPage, 'Topic').inputValue(), '', 'nor a topic');

      await messageItem(boPage, 'Is this done').locator('.message-content').click();
      t.equal(await field(boPage, 'Stream').inputValue(), OTHER_STREAM, "a clicked message's stream fills Stream");
      t.equal(await field(boPage, 'Topic').inputValue(), 'moved away', 'and its topic fills Topic');
      await messageItem(boPage, 'Psst').locator('.message-content').click();
      t.equal(await field(boPage, 'To').inputValue(), ada.email, "a clicked direct message's people fill To");

      await openHash(boPage, `#narrow/stream/${streamIdHere}`);
      await titleIs(boPage, `#${STREAM}`);
      t.equal(await field(boPage, 'Stream').inputValue(), STREAM, 'a stream view fills Stream');
      await sendToStream(boPage, STREAM, 'after clicks', `Still works ${Date.now()}`);
      await messageItem(boPage, 'Still works').waitFor();
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
