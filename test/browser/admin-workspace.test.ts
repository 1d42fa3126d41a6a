import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, browserStage, createPerson, createStream, fillSignIn, openPage, screenshot, signIn, solidPng } from './harness';

const STREAM = 'workspace tests';
const MODERATOR = 300;

async function openAdministration(page: Page, tab: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Administration', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Administration', exact: true });
  await dialog.getByRole('tab', { name: tab, exact: true }).click();
  return dialog;
}

function streamLink(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: new RegExp(`^${name}(\\s|$)`) });
}

/** The IDs of the messages `client` has not read, in one stream and topic or everywhere. */
async function unreadIds(client: ApiClient, stream?: string, topic?: string): Promise<number[]> {
  const narrow: { operator: string; operand: string }[] = [{ operator: 'is', operand: 'unread' }];
  if (stream !== undefined) narrow.push({ operator: 'stream', operand: stream });
  if (topic !== undefined) narrow.push({ operator: 'topic', operand: topic });
  const answer = await client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  return (answer.body['messages'] as { id: number }[]).map((message) => message.id);
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('an administrator runs the workspace from the page', async (t) => {
    const { server, browser, problems } = await browserStage(t);
    const bo = await createPerson(server, 'Bo');
    const boApi = new ApiClient(server.baseUrl, bo);
    await server.admin.post('/users/me/subscriptions', { subscriptions: [{ name: STREAM }] });
    await createStream(server, STREAM, [bo]);
    await createStream(server, 'elsewhere', [bo]);
    const streamId = Number((await server.admin.get('/get_stream_id', { stream: STREAM })).body['stream_id']);
    const owner = server.current.owner;
    const ownerPage = await signIn(browser, server, problems, { email: owner.email, password: owner.password });
    const boPage = await signIn(browser, server, problems, bo);
    const newcomer = { email: `newcomer-${process.pid}@example.com`, name: 'Newcomer Nia', id: 0 };

    t.test('a person added with a generated password, shown once, signs in with it as a moderator', async (t) => {
      const dialog = await openAdministration(ownerPage, 'Users');
      const form = dialog.getByRole('form', { name: 'Add a person', exact: true });
      await form.getByLabel('Email', { exact: true }).fill(newcomer.email);
      await form.getByLabel('Full name', { exact: true }).fill(newcomer.name);
      await form.getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: 'Moderator' });
      await form.getByRole('button', { name: 'Add person', exact: true }).click();
      const notice = form.getByRole('status');
      await notice.waitFor();
      const password = (await notice.locator('code').textContent()) ?? '';
      t.match(password, /^[\w-]{16}$/, 'a 16-character password is shown');
      await screenshot(ownerPage, 'admin-add-person');
      const users = (await server.admin.get('/users')).body['members'] as {
        email: string;
        user_id: number;
        role: number;
        full_name: string;
      }[];
      const added = users.find((user) => user.email === newcomer.email);
      t.equal(added?.full_name, newcomer.name);
      t.equal(added?.role, MODERATOR, 'the server has the chosen role');
      newcomer.id = added?.user_id ?? 0;
      const { page } = await openPage(browser, problems, newcomer.email);
      await fillSignIn(page, server.baseUrl, newcomer.email, password);
      await page.waitForURL(`${server.baseUrl}/`);
      t.pass('the newcomer signs in with the shown password');
      await page.context().close();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test("a stream's members are listed, and others are subscribed to it", async (t) => {
      const dialog = await openAdministration(ownerPage, 'Streams');
      await dialog.getByRole('combobox', { name: 'Stream', exact: true }).selectOption({ label: STREAM });
      const ownerName = ((await server.admin.get('/users/me')).body['full_name'] as string | undefined) ?? '';
      const members = dialog.getByRole('region', { name: `Members of ${STREAM}`, exact: true });
      await members.getByRole('listitem').filter({ hasText: bo.fullName }).waitFor();
      t.strictSame(
        await members.getByRole('listitem').allTextContents(),
        [bo.fullName, ownerName].sort((a, b) => a.localeCompare(b)),
      );
      await members.getByLabel('Subscribe people (emails or names, comma-separated)').fill(newcomer.email);
      await members.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await members
        .getByRole('status')
        .filter({ hasText: `Subscribed ${newcomer.name}` })
        .waitFor();
      await members.getByRole('listitem').filter({ hasText: newcomer.name }).waitFor();
      const subscribers = (await server.admin.get(`/streams/${streamId}/members`)).body['subscribers'] as number[];
      t.ok(subscribers.includes(newcomer.id), 'the server has the newcomer subscribed');
      await members.getByLabel('Subscribe people (emails or names, comma-separated)').fill('nobody@nowhere.test');
      await members.getByRole('button', { name: 'Subscribe', exact: true }).click();
      t.equal(await members.getByRole('alert').textContent(), 'Nobody here is called nobody@nowhere.test', 'an unknown person is named');
      await screenshot(ownerPage, 'admin-streams');
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('a stream renamed and described in Streams is renamed for its members', async (t) => {
      const dialog = await openAdministration(ownerPage, 'Streams');
      await dialog.getByRole('combobox', { name: 'Stream', exact: true }).selectOption({ label: 'elsewhere' });
      await dialog.getByLabel('Stream name', { exact: true }).fill('elsewhere renamed');
      await dialog.getByLabel('Description', { exact: true }).fill('Where the rest goes');
      await dialog.getByRole('button', { name: 'Save stream', exact: true }).click();
      await dialog.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await streamLink(boPage, 'elsewhere renamed').waitFor();
      t.pass("Bo's navigation shows the new name");
      const id = Number((await server.admin.get('/get_stream_id', { stream: 'elsewhere renamed' })).body['stream_id']);
      const stream = (await server.admin.get(`/streams/${id}`)).body['stream'] as { description: string };
      t.equal(stream.description, 'Where the rest goes');

      await dialog.getByRole('button', { name: 'Archive stream', exact: true }).click();
      await dialog.getByRole('button', { name: 'Archive elsewhere renamed', exact: true }).click();
      await streamLink(boPage, 'elsewhere renamed').waitFor({ state: 'detached' });
      t.pass('after the confirmed archive it is gone from the navigation');
      const answer = await server.admin.get(`/streams/${id}`);
      t.equal(answer.status, 400, 'the server no longer has it');
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('an avatar uploaded in Settings becomes the avatar the server serves', async (t) => {
      await boPage.getByRole('button', { name: 'Settings', exact: true }).click();
      const settings = boPage.getByRole('dialog', { name: 'Personal settings', exact: true });
      await settings
        .getByLabel('Upload avatar', { exact: true })
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: solidPng(64, [200, 40, 40]) });
      const preview = settings.getByRole('img', { name: 'Your avatar', exact: true });
      await boPage.waitForFunction(
        (img: { src: string; complete: boolean; naturalWidth: number }) =>
          img.src.includes('user_avatars') && img.complete && img.naturalWidth > 0,
        await preview.elementHandle(),
      );
      const user = (await server.admin.get(`/users/${bo.id}`)).body['user'] as { avatar_url: string };
      t.match(user.avatar_url, /user_avatars/, 'the server has an uploaded avatar');
      await screenshot(boPage, 'settings-avatar');
      await settings.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('a topic, a stream, then everything marked as read from the view header', async (t) => {
      // Nothing is read by being seen: the page must believe it is in the background.
      await boPage.evaluate(() => {
        (globalThis as unknown as { document: { hasFocus: () => boolean } }).document.hasFocus = () => false;
      });
      await boApi.post('/mark_all_as_read');
      for (const topic of ['one', 'one', 'two', 'two'])
        await server.admin.post('/messages', { type: 'stream', to: STREAM, topic, content: `About ${topic}` });
      await server.admin.post('/messages', { type: 'direct', to: JSON.stringify([bo.id]), content: 'Direct' });
      await boPage.evaluate((hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      }, `#narrow/stream/${streamId}/topic/one`);
      await boPage.getByRole('button', { name: 'Mark topic as read', exact: true }).click();
      await boPage.getByRole('button', { name: 'Mark topic as read', exact: true }).waitFor({ state: 'detached' });
      t.strictSame(await unreadIds(boApi, STREAM, 'one'), [], 'topic one is read');
      t.equal((await unreadIds(boApi, STREAM, 'two')).length, 2, 'topic two is not');
      await screenshot(boPage, 'mark-as-read');

      await boPage.evaluate((hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      }, `#narrow/stream/${streamId}`);
      await boPage.getByRole('button', { name: 'Mark stream as read', exact: true }).click();
      await boPage.getByRole('button', { name: 'Mark stream as read', exact: true }).waitFor({ state: 'detached' });
      t.strictSame(await unreadIds(boApi, STREAM), [], 'the stream is read');
      t.equal((await unreadIds(boApi)).length, 1, 'the direct message is not');

      await boPage.getByRole('button', { name: 'Mark all as read', exact: true }).click();
      await boPage.getByRole('button', { name: 'Mark all as read', exact: true }).waitFor({ state: 'detached' });
      t.strictSame(await unreadIds(boApi), [], 'nothing is unread');
    });

    t.test('no page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
