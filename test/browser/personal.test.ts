import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, messageItem, screenshot, sendToStream, twoPeopleInAStream } from './harness';

const STREAM = 'personal tests';

function streamLink(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: new RegExp(`^${name}(\\s|$)`) });
}

function peopleEntry(page: Page, name: string): Locator {
  return page.getByRole('complementary', { name: 'People', exact: true }).getByRole('listitem').filter({ hasText: name });
}

async function openDialog(page: Page, button: string, title: string): Promise<Locator> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title, exact: true });
  await dialog.waitFor();
  return dialog;
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('a person changes their settings, status and subscriptions', async (t) => {
    const { problems, bo, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);

    t.test("a new full name shows in the other person's people list", async (t) => {
      const settings = await openDialog(adaPage, 'Settings', 'Personal settings');
      await screenshot(adaPage, 'settings-dialog');
      const renamed = `Ada Lovelace ${Date.now()}`;
      await settings.getByLabel('Full name', { exact: true }).fill(renamed);
      await settings.getByRole('button', { name: 'Save name', exact: true }).click();
      await peopleEntry(boPage, renamed).waitFor();
      t.pass('the other person sees the new name');
      await settings.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('the Dark color scheme sets the dark theme on <html>', async (t) => {
      const settings = await openDialog(adaPage, 'Settings', 'Personal settings');
      await settings.getByRole('combobox', { name: 'Color scheme', exact: true }).selectOption({ label: 'Dark' });
      await adaPage.locator('html[data-color-scheme="dark"]').waitFor({ state: 'attached' });
      t.pass('<html> has the dark color scheme');
      await settings.getByRole('combobox', { name: 'Color scheme', exact: true }).selectOption({ label: 'Light' });
      await adaPage.locator('html[data-color-scheme="light"]').waitFor({ state: 'attached' });
      t.pass('and Light sets it back');
      await settings.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('24-hour time changes how message times are written', async (t) => {
      const text = `What time is it ${Date.now()}`;
      await sendToStream(adaPage, STREAM, 'clock', text);
      const time = messageItem(adaPage, text).locator('time');
      await time.waitFor();
      const before = (await time.textContent()) ?? '';
      t.match(before, /AM|PM/, `12-hour time at first (${before})`);
      const settings = await openDialog(adaPage, 'Settings', 'Personal settings');
      await settings.getByRole('checkbox', { name: '24-hour time', exact: true }).check();
      await adaPage.waitForFunction(
        (element: { textContent: string | null }) => !/AM|PM/.test(element.textContent ?? ''),
        await time.elementHandle(),
      );
      const after = (await time.textContent()) ?? '';
      t.match(after, /^\d{1,2}:\d{2}$/, `24-hour time afterwards (${after})`);
      await settings.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test("a status text shows beside my name in the other person's people list", async (t) => {
      const dialog = await openDialog(boPage, 'Status', 'Set status');
      const text = `At lunch ${Date.now() % 1000}`;
      await dialog.getByLabel('Status', { exact: true }).fill(text);
      await dialog.getByRole('button', { name: 'Save status', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await peopleEntry(adaPage, bo.fullName).getByText(text, { exact: true }).waitFor();
      t.pass("Ada sees Bo's status");
    });

    t.test('a stream created in the Streams dialog appears in the navigation; unsubscribing and subscribing again follow', async (t) => {
      const dialog = await openDialog(adaPage, 'Streams', 'Streams');
      const name = `fresh stream ${Date.now() % 100000}`;
      await dialog.getByLabel('Stream name', { exact: true }).fill(name);
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await dialog
        .getByRole('status')
        .filter({ hasText: `Created ${name}` })
        .waitFor();
      await streamLink(adaPage, name).waitFor();
      t.pass('the new stream is in the Streams navigation');

      const row = dialog.getByRole('listitem').filter({ hasText: name });
      await row.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
      await streamLink(adaPage, name).waitFor({ state: 'detached' });
      t.pass('after Unsubscribe it is gone from the navigation');
      await row.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await streamLink(adaPage, name).waitFor();
      t.pass('after Subscribe it is back');
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
