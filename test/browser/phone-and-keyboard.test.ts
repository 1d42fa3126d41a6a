// The page on a phone-sized screen (drawers, a compact compose box, nothing wider than the
// screen) and by keyboard (shortcuts, the skip link, the `?` overlay), with screenshots of the
// phone layout and of dark mode in the test artifacts.
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, messageItem, screenshot, twoPeopleInAStream } from './harness';

const STREAM = 'pocket';
const PHONE = { width: 390, height: 844 };

function viewTitle(page: Page): Locator {
  return page.getByRole('heading', { level: 1 });
}

async function titleIs(page: Page, title: string): Promise<void> {
  await viewTitle(page)
    .filter({ hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .waitFor();
}

function field(page: Page, label: string): Locator {
  return page.getByLabel(label, { exact: true });
}

function messageBox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

async function sideways(page: Page): Promise<number[]> {
  return page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]');
}

/** What has the keyboard focus: its accessible label, or its text. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(
    "(() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') ?? e.textContent ?? '').trim() : '' })()",
  );
}

/** The text of the message that is selected (marked and focused), or '' when none. */
async function selectedText(page: Page): Promise<string> {
  return page.evaluate(
    "(() => { const e = document.activeElement; return e && e.matches('article[data-selected]') ? e.querySelector('.message-content').textContent.trim() : '' })()",
  );
}

async function sendByApi(client: ApiClient, topic: string, content: string): Promise<void> {
  const sent = await client.post('/messages', { type: 'stream', to: STREAM, topic, content });
  if (sent.status !== 200) throw new Error(`cannot send: ${sent.text}`);
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('the page on a phone and by keyboard', async (t) => {
    const { server, problems, ada, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const adaApi = new ApiClient(server.baseUrl, ada);
    await sendByApi(adaApi, 'phones', `Hello from a phone ${Date.now()}`);
    await messageItem(adaPage, 'Hello from a phone').waitFor();

    t.test('on a 390×844 screen the columns are drawers, compose is one line, and nothing scrolls sideways', async (t) => {
      await adaPage.setViewportSize(PHONE);
      // Focus events need the window to have the focus, as a phone's one window does.
      await adaPage.bringToFront();
      const streams = adaPage.getByRole('navigation', { name: 'Streams', exact: true });
      const people = adaPage.getByRole('complementary', { name: 'People', exact: true });
      const menu = adaPage.getByRole('button', { name: 'Menu', exact: true });
      await streams.waitFor({ state: 'hidden' });
      t.equal(await people.isVisible(), false, 'the people list is closed');
      const [scrollWidth, width] = await sideways(adaPage);
      t.ok((scrollWidth ?? 0) <= (width ?? 0), `nothing scrolls sideways (content ${scrollWidth}, screen ${width})`);

      const compose = adaPage.getByRole('form', { name: 'Compose', exact: true });
      const closedHeight = (await compose.boundingBox())?.height ?? PHONE.height;
      t.ok(closedHeight < PHONE.height / 8, `compose is one line until focused (${closedHeight} px)`);
      t.equal(await field(adaPage, 'Topic').isVisible(), false, 'its recipient fields wait for the focus');
      await screenshot(adaPage, 'phone-drawers-closed');

      await messageBox(adaPage).click();
      await field(adaPage, 'Topic').waitFor();
      const openHeight = (await compose.boundingBox())?.height ?? PHONE.height;
      t.ok(openHeight < PHONE.height / 3, `focused, it stays under a third of the screen (${openHeight} px)`);
      const [focusedScrollWidth] = await sideways(adaPage);
      t.ok((focusedScrollWidth ?? 0) <= (width ?? 0), `the focused compose box fits the screen (${focusedScrollWidth})`);
      await adaPage.keyboard.press('Escape');
      await field(adaPage, 'Topic').waitFor({ state: 'hidden' });

      await menu.click();
      await streams.waitFor();
      t.equal(await menu.getAttribute('aria-expanded'), 'true', 'the menu button says the drawer is open');
      await screenshot(adaPage, 'phone-drawer-open');
      await adaPage.keyboard.press('Escape');
      await streams.waitFor({ state: 'hidden' });
      t.pass('Escape closes the drawer');

      await menu.click();
      await streams.waitFor();
      await adaPage.mouse.click(PHONE.width - 10, PHONE.height / 2);
      await streams.waitFor({ state: 'hidden' });
      t.pass('a click outside closes it');

      await menu.click();
      await streams.getByRole('link', { name: STREAM }).click();
      await titleIs(adaPage, `#${STREAM}`);
      await streams.waitFor({ state: 'hidden' });
      t.pass('choosing a view closes it');

      await adaPage.getByRole('button', { name: 'People', exact: true }).click();
      await people.getByText('Bo').waitFor();
      await screenshot(adaPage, 'phone-people-open');
      await adaPage.mouse.click(10, PHONE.height / 2);
      await people.waitFor({ state: 'hidden' });
      t.pass('the people list opens as a drawer and closes on a click outside');
    });

    t.test('dark mode on the phone', async (t) => {
      const dark = await adaApi.call('PATCH', '/settings', { color_scheme: 2 });
      t.equal(dark.status, 200, 'Ada chooses the dark theme');
      await adaPage.locator('html[data-color-scheme="dark"]').waitFor({ state: 'attached' });
      await screenshot(adaPage, 'phone-dark');
      await adaPage.getByRole('button', { name: 'Menu', exact: true }).click();
      await adaPage.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
      await screenshot(adaPage, 'phone-dark-drawer-open');
      await adaPage.keyboard.press('Escape');
      await adaApi.call('PATCH', '/settings', { color_scheme: 3 });
      await adaPage.locator('html[data-color-scheme="light"]').waitFor({ state: 'attached' });
    });

    t.test('the skip link comes first; c, / and ? open compose, search and the shortcuts; typing is left alone', async (t) => {
      await boPage.bringToFront();
      await boPage.keyboard.press('Tab');
      t.equal(await focused(boPage), 'Skip to compose', 'the first Tab reaches the skip link');
      await boPage.keyboard.press('Enter');
      t.equal(await focused(boPage), 'Message', 'it moves the focus to the Message box');
      await boPage.keyboard.press('Escape');
      t.not(await focused(boPage), 'Message', 'Escape leaves compose');

      await boPage.keyboard.press('c');
      t.equal(await focused(boPage), 'Message', 'c focuses the Message box');
      t.equal(await messageBox(boPage).inputValue(), '', 'and types nothing');
      await boPage.keyboard.press('Escape');

      await boPage.keyboard.press('/');
      t.equal(await focused(boPage), 'Search', '/ focuses Search');
      await boPage.keyboard.type('cr/n');
      t.equal(await field(boPage, 'Search').inputValue(), 'cr/n', 'keys typed in a field are text, not shortcuts');
      t.equal(await focused(boPage), 'Search', 'the focus stays');
      await field(boPage, 'Search').fill('');
      await boPage.keyboard.press('Escape');
      t.not(await focused(boPage), 'Search', 'Escape leaves the search box');

      await boPage.keyboard.press('Control+c');
      t.not(await focused(boPage), 'Message', 'Ctrl+c is no shortcut');

      await boPage.keyboard.press('?');
      const help = boPage.getByRole('dialog', { name: 'Keyboard shortcuts', exact: true });
      await help.waitFor();
      t.ok(await help.getByText('Next unread topic').isVisible(), 'the overlay lists the shortcuts');
      await boPage.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });
    });

    t.test('n opens the next unread topic; Escape leaves the view', async (t) => {
      await boPage.evaluate(`location.hash = '#narrow/stream/${await streamIdOf(adaApi)}/topic/waiting'`);
      await titleIs(boPage, `#${STREAM} > waiting`);
      await sendByApi(adaApi, 'news', `Fresh news ${Date.now()}`);
      await boPage.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /news/ }).waitFor();
      await boPage.keyboard.press('n');
      await titleIs(boPage, `#${STREAM} > news`);
      await messageItem(boPage, 'Fresh news').waitFor();
      t.pass('n went to the unread topic');
      await boPage.keyboard.press('Escape');
      await titleIs(boPage, 'All messages');
      t.pass('Escape went back to All messages');
    });

    t.test('j/k and the arrows select messages; r replies to the selected one; ↑ edits my last message', async (t) => {
      await sendByApi(adaApi, 'first topic', 'Alpha one');
      await sendByApi(adaApi, 'second topic', 'Beta two');
      await messageItem(boPage, 'Beta two').waitFor();
      await boPage.keyboard.press('k');
      t.equal(await selectedText(boPage), 'Beta two', 'k selects the newest message first');
      await boPage.keyboard.press('k');
      t.equal(await selectedText(boPage), 'Alpha one', 'k again the one before');
      await boPage.keyboard.press('j');
      t.equal(await selectedText(boPage), 'Beta two', 'j the next one');
      await boPage.keyboard.press('ArrowUp');
      t.equal(await selectedText(boPage), 'Alpha one', 'ArrowUp the one before');
      const outline = await boPage.evaluate('getComputedStyle(document.activeElement).outlineStyle');
      t.equal(outline, 'solid', 'the selected message has a focus ring');

      await boPage.keyboard.press('r');
      t.equal(await focused(boPage), 'Message', 'r opens compose');
      t.equal(await field(boPage, 'Topic').inputValue(), 'first topic', "to the selected message's topic");
      t.equal(await field(boPage, 'Stream').inputValue(), STREAM, 'in its stream');
      await messageBox(boPage).fill('My reply');
      await boPage.getByRole('button', { name: 'Send', exact: true }).click();
      // Sent, not only echoed: the server's copy is the one to edit.
      await messageItem(boPage, 'My reply').and(boPage.locator('[data-message-id]')).waitFor();

      t.equal(await focused(boPage), 'Message', 'the box keeps the focus after sending');
      await boPage.keyboard.press('ArrowUp');
      const edit = boPage.getByRole('dialog', { name: 'Edit message', exact: true });
      await edit.waitFor();
      const content = edit.getByRole('textbox', { name: 'Message content', exact: true });
      // The dialog fetches the message's source first.
      await boPage.waitForFunction((element: { value: string }) => element.value !== '', await content.elementHandle());
      t.equal(await content.inputValue(), 'My reply', '↑ in the empty box edits my last message');
      await boPage.keyboard.press('Escape');
      await edit.waitFor({ state: 'hidden' });
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}

async function streamIdOf(client: ApiClient): Promise<number> {
  const answer = await client.get('/get_stream_id', { stream: STREAM });
  return Number(answer.body['stream_id']);
}
