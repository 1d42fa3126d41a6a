import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import {
  browserSkipReason,
  browserStage,
  createPerson,
  createStream,
  messageItem,
  screenshot,
  sendToStream,
  signIn,
  solidPng,
} from './harness';

const STREAM = 'admin tests';
const MODERATOR = 300;

async function openAdministration(page: Page, tab: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Administration', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Administration', exact: true });
  await dialog.getByRole('tab', { name: tab, exact: true }).click();
  return dialog;
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test("the organization's owner administers it from the page", async (t) => {
    const { server, browser, problems } = await browserStage(t);
    const bo = await createPerson(server, 'Bo');
    const joined = await server.admin.post('/users/me/subscriptions', { subscriptions: [{ name: STREAM }] });
    t.equal(joined.status, 200, 'the owner joins the stream');
    await createStream(server, STREAM, [bo]);
    const owner = server.current.owner;
    const ownerPage = await signIn(browser, server, problems, { email: owner.email, password: owner.password });
    const boPage = await signIn(browser, server, problems, bo);

    t.test("a member's role changed in Users is the role the server keeps", async (t) => {
      const dialog = await openAdministration(ownerPage, 'Users');
      const role = dialog.getByRole('combobox', { name: `Role of ${bo.fullName}`, exact: true });
      const saved = ownerPage.waitForResponse(
        (response) => response.request().method() === 'PATCH' && response.url().endsWith(`/json/users/${bo.id}`),
      );
      await role.selectOption({ label: 'Moderator' });
      t.equal((await saved).status(), 200, 'the page saved the role');
      await screenshot(ownerPage, 'admin-dialog');
      const answer = await server.admin.get(`/users/${bo.id}`);
      const kept = Number((answer.body['user'] as { role?: number } | undefined)?.role);
      t.equal(kept, MODERATOR, 'the server has Bo as a moderator');
      t.equal(await role.inputValue(), String(MODERATOR), 'the select shows Moderator');
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('a linkifier added in Linkifiers turns matching text into a link', async (t) => {
      const dialog = await openAdministration(ownerPage, 'Linkifiers');
      await dialog.getByLabel('Pattern', { exact: true }).fill('#(?P<id>[0-9]+)');
      await dialog.getByLabel('URL template', { exact: true }).fill('https://issues.example.com/{id}');
      await dialog.getByRole('button', { name: 'Add linkifier', exact: true }).click();
      await dialog.getByRole('button', { name: 'Remove linkifier #(?P<id>[0-9]+)', exact: true }).waitFor();
      t.pass('the linkifier is listed');
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      const text = `Fixed in #4242 at ${Date.now()}`;
      await sendToStream(ownerPage, STREAM, 'links', text);
      const link = messageItem(boPage, 'Fixed in').getByRole('link', { name: '#4242', exact: true });
      await link.waitFor();
      t.equal(await link.getAttribute('href'), 'https://issues.example.com/4242', 'the other person sees #4242 as a link to the issue');
    });

    t.test('a custom emoji uploaded in Custom emoji is in the picker and shows as a reaction', async (t) => {
      const dialog = await openAdministration(ownerPage, 'Custom emoji');
      await dialog.getByLabel('Emoji name', { exact: true }).fill('green_square');
      await dialog
        .getByLabel('Emoji image', { exact: true })
        .setInputFiles({ name: 'green.png', mimeType: 'image/png', buffer: solidPng(64, [20, 160, 60]) });
      await dialog.getByRole('button', { name: 'Upload emoji', exact: true }).click();
      await dialog.getByRole('button', { name: 'Deactivate emoji green_square', exact: true }).waitFor();
      t.pass('the emoji is listed');
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();

      const text = `React to me ${Date.now()}`;
      await sendToStream(ownerPage, STREAM, 'emoji', text);
      const item = messageItem(boPage, text);
      await item.waitFor();
      await item.hover();
      await item.getByRole('button', { name: 'Add reaction', exact: true }).click();
      await boPage
        .getByRole('searchbox', { name: 'Search emoji', exact: true })
        .or(boPage.getByRole('textbox', { name: 'Search emoji', exact: true }))
        .fill('green_sq');
      await boPage.getByRole('button', { name: 'green_square', exact: true }).click();
      await ownerPage.getByRole('button', { name: 'green_square: 1', exact: true }).waitFor();
      t.pass('the reaction shows for the owner');
      const image = boPage.getByRole('button', { name: 'green_square: 1', exact: true }).locator('img');
      await image.waitFor();
      await boPage.waitForFunction(
        (img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0,
        await image.elementHandle(),
      );
      t.pass('and its image loads in the reaction');
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
