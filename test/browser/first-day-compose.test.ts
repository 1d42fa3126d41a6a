// A team's first day (issue "Bugs" 5, 7, 9, 10): completion ranking, a send that fails,
// search operators, and the confirmations and feedback an administrator expects.
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, messageFeed, messageItem, signIn, statusShowing, twoPeopleInAStream } from './harness';

const STREAM = 'first words';

function messageBox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

async function fillStream(page: Page, topic: string): Promise<void> {
  await page.getByLabel('Stream', { exact: true }).fill(STREAM);
  await page.getByLabel('Topic', { exact: true }).fill(topic);
}

/** The texts of the feed's messages, in the order shown. */
async function feedTexts(page: Page): Promise<string[]> {
  return messageFeed(page).locator('article .message-content').allTextContents();
}

function searchBox(page: Page): Locator {
  return page.getByRole('searchbox', { name: 'Search', exact: true });
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('compose, search and administration on a first day', async (t) => {
    const { server, browser, problems, ada, bo, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const boApi = new ApiClient(server.baseUrl, bo);

    t.test(':smile then Enter inserts :smile:, the exact name', async (t) => {
      await fillStream(adaPage, 'completion');
      const box = messageBox(adaPage);
      await box.fill('');
      await box.pressSequentially('Hi :smile');
      await adaPage
        .getByRole('listbox', { name: 'Emoji', exact: true })
        .getByRole('option', { name: 'smile', exact: true, selected: true })
        .waitFor();
      await box.press('Enter');
      t.equal(await box.inputValue(), 'Hi :smile: ');
      await box.fill('');
    });

    t.test('a message that failed to send offers Retry and Discard, and keeps its place', async (t) => {
      const failing = `Sent during an outage ${Date.now()}`;
      await adaPage.route('**/json/messages', (route) =>
        route.request().method() === 'POST' ? route.abort('connectionfailed') : route.continue(),
      );
      await fillStream(adaPage, 'outage');
      await messageBox(adaPage).fill(failing);
      await adaPage.getByRole('button', { name: 'Send', exact: true }).click();
      const item = messageItem(adaPage, failing);
      await item.getByText('Not sent', { exact: true }).waitFor();
      t.equal(await messageBox(adaPage).inputValue(), '', 'the text is not put back in the box, where it would be sent twice');

      const later = `Bo writes meanwhile ${Date.now()}`;
      await boApi.post('/messages', { type: 'stream', to: STREAM, topic: 'outage', content: later });
      await messageItem(adaPage, later).waitFor();
      const texts = await feedTexts(adaPage);
      t.ok(texts.indexOf(failing) >= 0 && texts.indexOf(failing) < texts.indexOf(later), 'the failed message stays before the newer one');

      // Another view and back: what was typed is not lost.
      const shownView = await adaPage.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);
      await adaPage.evaluate((hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      }, `#narrow/dm/${bo.id}`);
      await item.waitFor({ state: 'detached' });
      await adaPage.evaluate((hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      }, shownView);
      await item.getByText('Not sent', { exact: true }).waitFor();
      await messageItem(adaPage, later).waitFor();
      const back = await feedTexts(adaPage);
      t.ok(back.indexOf(failing) >= 0 && back.indexOf(failing) < back.indexOf(later), 'after another view it is still there, in its place');

      await adaPage.unroute('**/json/messages');
      await item.getByRole('button', { name: 'Retry', exact: true }).click();
      await messageItem(boPage, failing).waitFor();
      t.pass('after Retry the other person gets it');
      await item.getByText('Not sent', { exact: true }).waitFor({ state: 'detached' });
      t.equal((await feedTexts(adaPage)).filter((text) => text === failing).length, 1, 'it shows once for its sender');

      const dropped = `Never mind ${Date.now()}`;
      await adaPage.route('**/json/messages', (route) =>
        route.request().method() === 'POST' ? route.abort('connectionfailed') : route.continue(),
      );
      await fillStream(adaPage, 'outage');
      await messageBox(adaPage).fill(dropped);
      await adaPage.getByRole('button', { name: 'Send', exact: true }).click();
      await messageItem(adaPage, dropped).getByRole('button', { name: 'Discard', exact: true }).click();
      await messageItem(adaPage, dropped).waitFor({ state: 'detached' });
      t.pass('Discard removes it');
      await adaPage.unroute('**/json/messages');
    });

    t.test('search operators become a narrow, with suggestions and highlighted matches', async (t) => {
      const boText = `Bo likes pineapple ${Date.now()}`;
      const adaText = `Ada likes pineapple too ${Date.now()}`;
      const linkText = `Read https://example.com/pineapple ${Date.now()}`;
      await boApi.post('/messages', { type: 'stream', to: STREAM, topic: 'fruit', content: boText });
      await new ApiClient(server.baseUrl, ada).post('/messages', { type: 'stream', to: STREAM, topic: 'fruit', content: adaText });
      await boApi.post('/messages', { type: 'stream', to: STREAM, topic: 'links', content: linkText });
      // Only has:link shows this one of the views below: seeing it says that view has loaded.
      const otherLinkText = `See https://example.com/elsewhere ${Date.now()}`;
      await new ApiClient(server.baseUrl, ada).post('/messages', { type: 'stream', to: STREAM, topic: 'other', content: otherLinkText });

      const search = searchBox(adaPage);
      await search.fill('');
      await search.pressSequentially('sender:');
      const suggestion = adaPage.getByRole('listbox', { name: 'Search suggestions', exact: true }).getByRole('option', {
        name: `sender:${bo.email}`,
        exact: true,
      });
      await suggestion.click();
      t.equal(await search.inputValue(), `sender:${bo.email} `, 'the suggestion completes the operator');
      await search.press('Enter');
      // Each view's own messages are awaited, and the last view's gone, before the feed is read.
      await messageItem(adaPage, adaText).waitFor({ state: 'detached' });
      await messageItem(adaPage, boText).waitFor();
      t.notOk(
        (await feedTexts(adaPage)).some((text) => text.includes(adaText)),
        "sender: leaves out Ada's messages",
      );

      await search.fill(`stream:"${STREAM}" topic:links`);
      await search.press('Enter');
      await messageItem(adaPage, boText).waitFor({ state: 'detached' });
      await messageItem(adaPage, linkText).waitFor();
      t.strictSame(
        (await feedTexts(adaPage)).filter((text) => text.includes('pineapple')),
        [linkText],
        'stream: and topic: narrow to the topic',
      );

      await search.fill('has:link');
      await search.press('Enter');
      await messageItem(adaPage, otherLinkText).waitFor();
      await messageItem(adaPage, linkText).waitFor();
      t.notOk(
        (await feedTexts(adaPage)).some((text) => text.includes(boText)),
        'has:link leaves out messages without links',
      );

      await search.fill('pineapple sender:' + ada.email);
      await search.press('Enter');
      const highlighted = messageItem(adaPage, adaText).locator('.highlight');
      await highlighted.first().waitFor();
      t.equal((await highlighted.first().textContent())?.toLowerCase(), 'pineapple', 'the matched word is highlighted');
    });

    t.test('deactivating someone asks first; saving settings says Saved; the favicon is served', async (t) => {
      const owner = server.current.owner;
      const ownerPage = await signIn(browser, server, problems, { email: owner.email, password: owner.password });
      await ownerPage.getByRole('button', { name: 'Administration', exact: true }).click();
      const admin = ownerPage.getByRole('dialog', { name: 'Administration', exact: true });
      await admin.getByRole('tab', { name: 'Users', exact: true }).click();
      const row = admin.getByRole('row').filter({ hasText: bo.fullName });
      await row.getByRole('button', { name: 'Deactivate', exact: true }).click();
      const confirm = ownerPage.getByRole('alertdialog', { name: `Deactivate ${bo.fullName}?`, exact: true });
      await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
      await confirm.waitFor({ state: 'detached' });
      const stillActive = await server.admin.get(`/users/${bo.id}`);
      t.equal((stillActive.body['user'] as { is_active?: boolean } | undefined)?.is_active, true, 'Cancel keeps Bo active');
      await row.getByRole('button', { name: 'Deactivate', exact: true }).click();
      await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
      await row.getByRole('button', { name: 'Reactivate', exact: true }).waitFor();
      const deactivated = await server.admin.get(`/users/${bo.id}`);
      t.equal((deactivated.body['user'] as { is_active?: boolean } | undefined)?.is_active, false, 'confirming deactivates Bo');
      await admin.getByRole('button', { name: 'Close', exact: true }).click();

      await adaPage.getByRole('button', { name: 'Settings', exact: true }).click();
      const settings = adaPage.getByRole('dialog', { name: 'Personal settings', exact: true });
      await settings.getByLabel('Full name', { exact: true }).fill(`Ada Saved ${Date.now()}`);
      await settings.getByRole('button', { name: 'Save name', exact: true }).click();
      await statusShowing(adaPage, 'Saved').waitFor();
      t.pass('saving the name says Saved');
      await settings.getByRole('checkbox', { name: '24-hour time', exact: true }).check();
      await statusShowing(adaPage, 'Saved').waitFor();
      t.pass('saving a setting says Saved');
      await settings.getByRole('button', { name: 'Close', exact: true }).click();

      // The page names an icon: the served one, or (with unread messages) that icon with a count badge.
      const icon = await adaPage.locator('link[rel="icon"]').getAttribute('href');
      t.ok(icon === '/favicon.svg' || icon?.startsWith('data:image/'), `the page names its icon (${String(icon).slice(0, 40)})`);
      for (const path of ['/favicon.svg', '/favicon.ico']) {
        const answer = await adaPage.request.get(`${server.baseUrl}${path}`);
        t.equal(answer.status(), 200, `${path} is served`);
        t.match(answer.headers()['content-type'] ?? '', /^image\//, `${path} is an image`);
      }
    });

    t.test('no page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
