import t from 'tap';
import type { Page } from 'playwright-core';
import {
  browserSkipReason,
  messageFeed,
  messageItem,
  screenshot,
  sendToStream,
  solidPng,
  statusShowing,
  twoPeopleInAStream,
} from './harness';

const STREAM = 'browser tests';
const TOPIC = 'greetings';

/** When the page's document was created: unchanged as long as the page has not reloaded. */
function documentStart(page: Page): Promise<number> {
  return page.evaluate<number>('performance.timeOrigin');
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('two people talk in a stream, each in a browser of their own', async (t) => {
    const { problems, ada, bo, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const boStarted = await documentStart(boPage);
    const first = `Hello from Ada ${Date.now()}`;

    t.test('a message sent to a stream shows at once for its sender and, without a reload, for the other person', async (t) => {
      await sendToStream(adaPage, STREAM, TOPIC, first);
      await messageItem(adaPage, first).waitFor();
      t.pass('the sender sees the message');
      await messageItem(boPage, first).waitFor();
      t.pass('the other person sees the message');
      t.equal(await documentStart(boPage), boStarted, 'the other page did not reload');
    });

    t.test('each page reports its person present, so the other sees them active in the people list', async (t) => {
      const people = adaPage.getByRole('complementary', { name: 'People', exact: true });
      const boEntry = people.getByRole('listitem').filter({ hasText: bo.fullName });
      await boEntry.getByRole('img', { name: 'Active', exact: true }).waitFor();
      t.pass('Bo shows as active to Ada');
    });

    t.test("the stream view lists the stream's messages", async (t) => {
      // The link's name may carry a `#` before the stream's name and an unread count after it.
      const streamLink = boPage
        .getByRole('navigation', { name: 'Streams', exact: true })
        .getByRole('link', { name: new RegExp(`^#?\\s*${STREAM}(\\s|$)`) });
      await streamLink.click();
      await messageItem(boPage, first).waitFor();
      t.pass('the message is in the stream view');
      await screenshot(boPage, 'stream-view');
    });

    t.test('a reaction chosen by keyboard from the emoji picker shows for the sender', async (t) => {
      const item = messageItem(boPage, first);
      await item.hover();
      const addReaction = item.getByRole('button', { name: 'Add reaction', exact: true });
      await addReaction.focus();
      await boPage.keyboard.press('Enter');
      const choice = boPage
        .getByRole('button', { name: 'thumbs_up', exact: true })
        .or(boPage.getByRole('option', { name: 'thumbs_up', exact: true }))
        .or(boPage.getByRole('menuitem', { name: 'thumbs_up', exact: true }))
        .or(boPage.getByRole('gridcell', { name: 'thumbs_up', exact: true }))
        .first();
      await choice.click();
      await adaPage.getByRole('button', { name: 'thumbs_up: 1', exact: true }).waitFor();
      t.pass('the sender sees thumbs_up: 1');
      await boPage.getByRole('button', { name: 'thumbs_up: 1', exact: true }).waitFor();
      t.pass('the reacting person sees it too');
    });

    t.test('typing shows "<name> is typing…" to the other person until the message is sent', async (t) => {
      const typing = statusShowing(boPage, `${ada.fullName} is typing…`);
      const text = `Typed slowly by Ada ${Date.now()}`;
      await adaPage.getByLabel('Stream', { exact: true }).fill(STREAM);
      await adaPage.getByLabel('Topic', { exact: true }).fill(TOPIC);
      await adaPage.getByRole('textbox', { name: 'Message', exact: true }).pressSequentially(text);
      await typing.waitFor();
      t.pass('the typing indicator appears');
      await screenshot(adaPage, 'compose');
      await adaPage.getByRole('button', { name: 'Send', exact: true }).click();
      await messageItem(boPage, text).waitFor();
      await typing.waitFor({ state: 'hidden' });
      t.pass('the typing indicator goes');
    });

    t.test('an uploaded image is sent as a link and shows inline as an image', async (t) => {
      await adaPage.getByLabel('Stream', { exact: true }).fill(STREAM);
      await adaPage.getByLabel('Topic', { exact: true }).fill(TOPIC);
      const message = adaPage.getByRole('textbox', { name: 'Message', exact: true });
      await message.fill('');
      await adaPage
        .locator('input[type="file"]')
        .first()
        .setInputFiles({ name: 'red-square.png', mimeType: 'image/png', buffer: solidPng(48, [200, 30, 30]) });
      await adaPage.waitForFunction((box: { value: string }) => box.value.includes('/user_uploads/'), await message.elementHandle());
      t.match(await message.inputValue(), /\[red-square\.png\]\(\/user_uploads\/[^)]+\)/, 'the upload is a link in the message');
      await adaPage.getByRole('button', { name: 'Send', exact: true }).click();
      const image = messageFeed(boPage).locator('img[src*="/user_uploads/"], img[src*="/thumbnail"]').last();
      await image.waitFor();
      await boPage.waitForFunction(
        (img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0,
        await image.elementHandle(),
      );
      t.pass('the image loads inline for the other person');
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
