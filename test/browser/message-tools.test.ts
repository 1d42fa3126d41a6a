import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, messageFeed, messageItem, screenshot, sendToStream, twoPeopleInAStream } from './harness';

const STREAM = 'message tools';

// The page's window, as the function passed to `evaluate` sees it (the tests compile without the DOM library).
type StyleOf = { getComputedStyle(element: unknown): { opacity: string } };

function opacity(control: Locator): Promise<number> {
  return control.evaluate((element) => Number((globalThis as unknown as StyleOf).getComputedStyle(element).opacity));
}

function composeField(page: Page, label: string): Locator {
  return page.getByRole('form', { name: 'Compose', exact: true }).getByLabel(label, { exact: true });
}

/** Opens a view by its hash, as a link in the page would (a hash-only `goto` waits for a load that never comes in Firefox). */
async function openView(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = target;
  }, hash);
}

async function moveMouseAway(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).hover();
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test("a message's tools: hover, star, reply, quote, the sender's card, the new-messages line, older history", async (t) => {
    const { server, problems, ada, bo, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const adaApi = new ApiClient(server.baseUrl, ada);
    const boApi = new ApiClient(server.baseUrl, bo);
    const marker = `Tools ${Date.now()}`;
    await sendToStream(adaPage, STREAM, 'plans', `${marker} **bold** plan`);
    const message = messageItem(boPage, marker);
    await message.waitFor();
    const reply = message.getByRole('button', { name: 'Reply', exact: true });
    const star = message.getByRole('button', { name: 'Star', exact: true });

    t.test('tools show on hover and on keyboard focus, not otherwise', async (t) => {
      await moveMouseAway(boPage);
      t.equal(await opacity(reply), 0, 'Reply is hidden while the pointer is elsewhere');
      t.equal(await opacity(message.getByRole('button', { name: 'Message actions', exact: true })), 0, 'so is the menu');
      await message.hover();
      t.equal(await opacity(reply), 1, 'hovering the message shows Reply');
      await moveMouseAway(boPage);
      await reply.focus();
      t.equal(await opacity(reply), 1, 'a keyboard focus inside the message shows it too');
      t.equal(await opacity(star), 1, 'and the star beside it');
      await boPage.getByRole('heading', { level: 1 }).click();
    });

    t.test('Escape pressed right after the menu opens closes it and gives the focus back to its button', async (t) => {
      await message.hover();
      const button = message.getByRole('button', { name: 'Message actions', exact: true });
      // Opened and escaped in one task of the page, after the open has rendered but before the
      // next frame: the key must reach the menu however soon it comes.
      await button.evaluate(async (element) => {
        element.focus();
        element.click();
        for (let turn = 0; turn < 3; turn++) await Promise.resolve();
        const escape = { key: 'Escape', bubbles: true, cancelable: true };
        const page = element.ownerDocument.defaultView as unknown as { KeyboardEvent: new (type: string, init: object) => Event };
        element.ownerDocument.activeElement?.dispatchEvent(new page.KeyboardEvent('keydown', escape));
      });
      await boPage.getByRole('menu', { name: 'Message actions', exact: true }).waitFor({ state: 'detached', timeout: 3000 });
      t.equal(await button.evaluate((element) => element === element.ownerDocument.activeElement), true, 'the button has the focus');
      await boPage.getByRole('heading', { level: 1 }).click();
    });

    t.test('a starred message shows its star after the pointer leaves, and the server keeps the flag', async (t) => {
      await message.hover();
      await star.click();
      await message.getByRole('button', { name: 'Star', exact: true, pressed: true }).waitFor();
      await moveMouseAway(boPage);
      await boPage.getByRole('heading', { level: 1 }).click();
      t.equal(await opacity(star), 1, 'the star stays in sight');
      t.equal(await star.textContent(), '★');
      const starred = await boApi.get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: [{ operator: 'is', operand: 'starred' }],
      });
      const contents = (starred.body['messages'] as { content: string }[]).map((found) => found.content);
      t.equal(contents.length, 1, 'one starred message');
      t.match(contents[0] ?? '', marker);
      await screenshot(boPage, 'message-starred');
    });

    t.test("Reply opens compose on the message's conversation from All messages", async (t) => {
      await openView(boPage, `#narrow/all`);
      await message.hover();
      await reply.click();
      t.equal(await composeField(boPage, 'Stream').inputValue(), STREAM);
      t.equal(await composeField(boPage, 'Topic').inputValue(), 'plans');
      const box = boPage.getByRole('textbox', { name: 'Message', exact: true });
      await boPage.waitForFunction(
        (element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        await box.elementHandle(),
      );
      t.pass('the Message box has the focus');
    });

    t.test('Quote and reply adds the message as a quote under a mention of its sender', async (t) => {
      await message.hover();
      await message.getByRole('button', { name: 'Message actions', exact: true }).click();
      await boPage.getByRole('menuitem', { name: 'Quote and reply', exact: true }).click();
      const box = boPage.getByRole('textbox', { name: 'Message', exact: true });
      await boPage.waitForFunction((element: { value: string }) => element.value.includes('quote'), await box.elementHandle());
      const text = await box.inputValue();
      const id = await message.getAttribute('data-message-id');
      t.equal(
        text,
        `@_**${ada.fullName}|${ada.id}** [said](${server.baseUrl}/#narrow/stream/${await streamId(adaApi)}/topic/plans/near/${id}):\n\`\`\`quote\n${marker} **bold** plan\n\`\`\`\n`,
      );
      await boPage.getByRole('button', { name: 'Send', exact: true }).click();
      await messageItem(adaPage, `${marker} bold plan`).locator('blockquote').waitFor();
      t.pass('sent, the other person sees the quote');
    });

    t.test("the sender's name opens their card, with a link to a direct conversation", async (t) => {
      await message.getByRole('button', { name: ada.fullName, exact: true }).click();
      const card = boPage.getByRole('dialog', { name: ada.fullName, exact: true });
      await card.waitFor();
      t.equal(await card.getByRole('definition').first().textContent(), 'Member', 'the role');
      t.ok((await card.textContent())?.includes(ada.email), 'the email');
      await screenshot(boPage, 'profile-card');
      await boPage.keyboard.press('Escape');
      await card.waitFor({ state: 'detached' });
      await message.getByRole('button', { name: ada.fullName, exact: true }).click();
      await card.getByRole('link', { name: 'Send a direct message', exact: true }).click();
      await boPage.waitForURL(`${server.baseUrl}/#narrow/dm/${ada.id}`);
      await card.waitFor({ state: 'detached' });
      t.pass('the link opens the conversation and closes the card');
    });

    t.test('a view opens with a "New messages" line above the first unread message', async (t) => {
      // The page hears of these messages late, as with a slow poll: its next poll is held from
      // here on, so the line must come from the fetched list's own flags.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let pollHeld: () => void = () => undefined;
      const aPollIsHeld = new Promise<void>((resolve) => (pollHeld = resolve));
      const continued: Promise<void>[] = [];
      const isPoll = (url: URL): boolean => url.pathname === '/json/events';
      await boPage.route(isPoll, (route) => {
        pollHeld();
        continued.push(held.then(() => route.continue()));
      });
      // Any event answers the poll parked before the route; the page's next one is held.
      await adaApi.post('/users/me/status', { status_text: 'Reading the news' });
      await aPollIsHeld;
      await boApi.post('/mark_all_as_read');
      await adaApi.post('/messages', { type: 'stream', to: STREAM, topic: 'news', content: 'Read before' });
      await boApi.post('/mark_all_as_read');
      for (const text of ['Fresh one', 'Fresh two'])
        await adaApi.post('/messages', { type: 'stream', to: STREAM, topic: 'news', content: text });
      // Firefox runs a background page's animation frames (which draw and check the view) only now and then.
      await boPage.bringToFront();
      await openView(boPage, `#narrow/stream/${await streamId(adaApi)}/topic/news`);
      const line = messageFeed(boPage).getByRole('separator', { name: 'New messages', exact: true });
      try {
        await line.waitFor();
      } finally {
        release();
        await Promise.all(continued);
        await boPage.unroute(isPoll);
      }
      t.equal(
        await boPage
          .locator('.new-messages-marker + article')
          .textContent()
          .then((text) => text?.includes('Fresh one')),
        true,
        'it sits right above the first unread',
      );
      t.equal(await messageFeed(boPage).getByRole('separator', { name: 'New messages', exact: true }).count(), 1);
      await screenshot(boPage, 'new-messages-line');
    });

    t.test('scrolling to the top shows that older messages are loading until they arrive', async (t) => {
      for (let index = 0; index < 60; index++)
        await adaApi.post('/messages', { type: 'stream', to: STREAM, topic: 'history', content: `Old ${String(index).padStart(2, '0')}` });
      await boApi.post('/mark_all_as_read');
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await boPage.route(
        (url) => url.pathname === '/json/messages' && /^\d+$/.test(url.searchParams.get('anchor') ?? ''),
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await openView(boPage, `#narrow/stream/${await streamId(adaApi)}/topic/history`);
      await messageItem(boPage, 'Old 59').waitFor();
      await messageFeed(boPage).evaluate((feed: { scrollTop: number }) => (feed.scrollTop = 0));
      const loading = boPage.getByRole('status').filter({ hasText: 'Loading older messages…' });
      await loading.waitFor();
      t.pass('the loading notice shows');
      await screenshot(boPage, 'loading-older');
      release();
      await messageItem(boPage, 'Old 00').waitFor({ state: 'attached' });
      await loading.waitFor({ state: 'detached' });
      t.pass('and goes once the older messages are in');
      await boPage.unrouteAll();
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}

async function streamId(api: ApiClient): Promise<number> {
  const answer = await api.get('/get_stream_id', { stream: STREAM });
  return Number(answer.body['stream_id']);
}
