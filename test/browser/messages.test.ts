import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, messageItem, sendToStream, twoPeopleInAStream } from './harness';

const STREAM = 'message tests';

/** The browser's getComputedStyle, typed for this (non-DOM) test build; used inside the page only. */
type StyleOf = { getComputedStyle(element: unknown): { opacity: string } };

/** Opens a message's `Message actions` menu and picks `item`. */
async function chooseAction(page: Page, message: Locator, item: string): Promise<void> {
  await message.hover();
  await message.getByRole('button', { name: 'Message actions', exact: true }).click();
  await page.getByRole('menu', { name: 'Message actions', exact: true }).getByRole('menuitem', { name: item, exact: true }).click();
}

function streamsNavigation(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Streams', exact: true });
}

function link(page: Page, name: string): Locator {
  return streamsNavigation(page).getByRole('link', { name: new RegExp(`^${name}(\\s|$)`) });
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('a person changes their messages and the other person sees it live', async (t) => {
    const { problems, adaPage, boPage } = await twoPeopleInAStream(t, STREAM, async (server) => {
      // By default only administrators may delete their messages; this organization lets everyone.
      const policy = await server.admin.call('PATCH', '/realm', { delete_own_message_policy: 1 });
      if (policy.status !== 200) throw new Error(`cannot let everyone delete their own messages: ${policy.text}`);
    });

    t.test('an own message edited through Message actions shows its new text and (edited) for the other person', async (t) => {
      const before = `Draft wording ${Date.now()}`;
      const after = `Final wording ${Date.now()}`;
      await sendToStream(adaPage, STREAM, 'editing', before);
      await messageItem(boPage, before).waitFor();
      await chooseAction(adaPage, messageItem(adaPage, before), 'Edit');
      const dialog = adaPage.getByRole('dialog', { name: 'Edit message', exact: true });
      const content = dialog.getByLabel('Message content', { exact: true });
      await adaPage.waitForFunction((box: { value: string }) => box.value !== '', await content.elementHandle());
      t.equal(await content.inputValue(), before, "the dialog holds the message's Markdown");
      await content.fill(after);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const edited = messageItem(boPage, after);
      await edited.waitFor();
      await edited.getByText('(edited)', { exact: true }).waitFor();
      t.pass('the other person sees the new text with (edited)');
      t.equal(await messageItem(boPage, before).count(), 0, 'the old text is gone');
    });

    t.test('an own message deleted through Message actions is gone for the other person', async (t) => {
      const doomed = `Sent by mistake ${Date.now()}`;
      await sendToStream(adaPage, STREAM, 'editing', doomed);
      await messageItem(boPage, doomed).waitFor();
      await chooseAction(adaPage, messageItem(adaPage, doomed), 'Delete');
      const dialog = adaPage.getByRole('dialog', { name: 'Delete message', exact: true });
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await messageItem(boPage, doomed).waitFor({ state: 'detached' });
      t.pass("the message left the other person's view");
      await messageItem(adaPage, doomed).waitFor({ state: 'detached' });
      t.pass("and the sender's");
    });

    t.test('a starred message is listed in the Starred view', async (t) => {
      const keeper = `Worth keeping ${Date.now()}`;
      await sendToStream(adaPage, STREAM, 'stars', keeper);
      await messageItem(boPage, keeper).waitFor();
      await chooseAction(boPage, messageItem(boPage, keeper), 'Star');
      await streamsNavigation(boPage).getByRole('link', { name: 'Starred', exact: true }).click();
      await boPage.waitForURL(/#narrow\/(is\/)?starred/);
      await messageItem(boPage, keeper).waitFor();
      t.pass('the Starred view lists it');
      await boPage.getByRole('menu', { name: 'Message actions' }).waitFor({ state: 'detached' });
      await messageItem(boPage, keeper).hover();
      await messageItem(boPage, keeper).getByRole('button', { name: 'Message actions', exact: true }).click();
      await boPage.getByRole('menuitem', { name: 'Unstar', exact: true }).waitFor();
      t.pass('its menu now offers Unstar');
      await boPage.keyboard.press('Escape');
    });

    t.test('a topic moved to a new name and then resolved shows so for the other person', async (t) => {
      const text = `About the old name ${Date.now()}`;
      await sendToStream(adaPage, STREAM, 'old name', text);
      await link(boPage, STREAM).click();
      await messageItem(boPage, text).waitFor();
      await chooseAction(adaPage, messageItem(adaPage, text), 'Move topic');
      const dialog = adaPage.getByRole('dialog', { name: 'Move topic', exact: true });
      await dialog.getByLabel('New topic', { exact: true }).fill('new name');
      await dialog.getByRole('button', { name: 'Move', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await link(boPage, 'new name').waitFor();
      t.pass("the other person's topic list shows the new name");
      await link(boPage, 'old name').waitFor({ state: 'detached' });
      t.pass('and no longer the old one');

      await chooseAction(adaPage, messageItem(adaPage, text), 'Resolve topic');
      await link(boPage, '✔ new name').waitFor();
      t.pass('the resolved topic shows with its ✔ prefix for the other person');
      await link(boPage, '✔ new name').click();
      await messageItem(boPage, text).waitFor();
      t.pass('and its messages followed it');
    });

    t.test('a muted topic is dimmed in the topic list', async (t) => {
      const text = `Noise ${Date.now()}`;
      await sendToStream(adaPage, STREAM, 'noisy', text);
      await link(boPage, STREAM).click();
      await messageItem(boPage, text).waitFor();
      await chooseAction(boPage, messageItem(boPage, text), 'Mute topic');
      const topic = streamsNavigation(boPage)
        .locator('li.muted')
        .filter({ has: boPage.getByRole('link', { name: /^noisy(\s|$)/ }) });
      await topic.waitFor();
      t.pass('the topic is marked muted');
      const opacity = await link(boPage, 'noisy').evaluate((element) =>
        Number((globalThis as unknown as StyleOf).getComputedStyle(element).opacity),
      );
      t.ok(opacity < 1, `the muted topic is dimmed (opacity ${opacity})`);
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
