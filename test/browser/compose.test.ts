import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, currentBrowser, messageItem, twoPeopleInAStream } from './harness';

const STREAM = 'compose tests';

function messageBox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

function streamsNavigation(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Streams', exact: true });
}

async function fillStream(page: Page, topic: string): Promise<void> {
  await page.getByRole('button', { name: 'Stream message', exact: true }).click();
  await page.getByLabel('Stream', { exact: true }).fill(STREAM);
  await page.getByLabel('Topic', { exact: true }).fill(topic);
}

/** Waits until the textbox holds exactly `value`; on timeout, says what it held. */
async function boxHolds(page: Page, value: string): Promise<void> {
  const box = (await messageBox(page).elementHandle()) as unknown as { value: string };
  try {
    await page.waitForFunction(([element, wanted]) => element.value === wanted, [box, value] as const);
  } catch (error) {
    const mode = await page.getByRole('button', { name: 'Direct message', exact: true }).getAttribute('aria-pressed');
    throw new Error(
      `the Message box holds ${JSON.stringify(await messageBox(page).inputValue())}, not ${JSON.stringify(value)} (direct message mode: ${mode})`,
      { cause: error },
    );
  }
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('the compose box: direct messages, sending keys, preview, drafts, completion and uploads', async (t) => {
    const { problems, ada, bo, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);

    t.test("a direct message written with the To field arrives in the other person's direct messages", async (t) => {
      await adaPage.getByRole('button', { name: 'Direct message', exact: true }).click();
      const to = adaPage.getByLabel('To', { exact: true });
      const offered = await to.evaluate((input: { list: { options: ArrayLike<{ value: string }> } | null }) =>
        Array.from(input.list?.options ?? []).map((option) => option.value),
      );
      t.ok(offered.includes(bo.email), 'the To field offers the other person for completion');
      await to.fill(bo.email);
      const text = `Just between us ${Date.now()}`;
      await messageBox(adaPage).fill(text);
      await adaPage.getByRole('button', { name: 'Send', exact: true }).click();
      await messageItem(adaPage, text).waitFor();
      const conversation = streamsNavigation(boPage).getByRole('link', { name: new RegExp(`^${ada.fullName}(\\s|$)`) });
      await conversation.waitFor();
      t.pass('the conversation is listed under Direct messages for the other person');
      await conversation.click();
      await boPage.waitForURL(/#narrow\/dm\//);
      await messageItem(boPage, text).waitFor();
      t.pass('and its view shows the message');
    });

    t.test('Enter and Ctrl+Enter send as the Enter sends setting says', async (t) => {
      await streamsNavigation(boPage).getByRole('link', { name: 'All messages', exact: true }).click();
      await boPage.waitForURL(/#narrow\/all/);
      await fillStream(adaPage, 'keys');
      const box = messageBox(adaPage);
      await adaPage.getByRole('button', { name: 'Settings', exact: true }).click();
      const settings = adaPage.getByRole('dialog', { name: 'Personal settings', exact: true });
      const enterSends = settings.getByRole('checkbox', { name: 'Enter sends the message', exact: true });
      if (await enterSends.isChecked()) {
        await enterSends.uncheck();
        await adaPage.waitForFunction(
          () =>
            (globalThis as unknown as { document: { querySelector(s: string): { placeholder: string } | null } }).document
              .querySelector('textarea[aria-label="Message"]')
              ?.placeholder.includes('Ctrl+Enter') === true,
        );
      }
      await settings.getByRole('button', { name: 'Close', exact: true }).click();

      const first = `Line one ${Date.now()}`;
      await box.fill(first);
      await box.press('Enter');
      await box.pressSequentially('line two');
      await boxHolds(adaPage, `${first}\nline two`);
      t.pass('with Enter sends off, Enter starts a new line');
      await box.press('Control+Enter');
      await messageItem(boPage, first).waitFor();
      t.pass('and Ctrl+Enter sends');

      await adaPage.getByRole('button', { name: 'Settings', exact: true }).click();
      await enterSends.check();
      await adaPage.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { placeholder: string } | null } }).document
            .querySelector('textarea[aria-label="Message"]')
            ?.placeholder.includes('Enter sends') === true,
      );
      await settings.getByRole('button', { name: 'Close', exact: true }).click();
      const second = `Sent by Enter ${Date.now()}`;
      await box.fill(second);
      await box.press('Enter');
      await messageItem(boPage, second).waitFor();
      t.pass('with Enter sends on, Enter sends');
      await boxHolds(adaPage, '');
    });

    t.test("Preview shows the server's rendered HTML", async (t) => {
      await fillStream(adaPage, 'preview');
      await messageBox(adaPage).fill('Some **bold** words');
      await adaPage.getByRole('button', { name: 'Preview', exact: true }).click();
      const preview = adaPage.getByLabel('Preview', { exact: true });
      await preview.locator('strong', { hasText: 'bold' }).waitFor();
      t.pass('the preview has the bold word as <strong>');
      await adaPage.getByRole('button', { name: 'Preview', exact: true }).click();
      await boxHolds(adaPage, 'Some **bold** words');
      t.pass('leaving the preview gives back the text');
      await messageBox(adaPage).fill('');
    });

    t.test('a draft survives a reload', async (t) => {
      await adaPage
        .getByRole('complementary', { name: 'People', exact: true })
        .getByRole('link', { name: new RegExp(bo.fullName) })
        .click();
      await adaPage.waitForURL(/#narrow\/dm\//);
      const draft = `Half a thought ${Date.now()}`;
      await messageBox(adaPage).fill(draft);
      await adaPage.reload();
      await boxHolds(adaPage, draft);
      t.pass('the draft is back in the Message box');
      await messageBox(adaPage).fill('');
    });

    t.test(':emoji and @mention completion insert the chosen text', async (t) => {
      await fillStream(adaPage, 'completion');
      const box = messageBox(adaPage);
      await box.fill('');
      await box.pressSequentially('Nice :thumbs_u');
      await adaPage
        .getByRole('listbox', { name: 'Emoji', exact: true })
        .getByRole('option', { name: 'thumbs_up', exact: true, selected: true })
        .waitFor();
      await box.press('Enter');
      await boxHolds(adaPage, 'Nice :thumbs_up: ');
      t.pass('the emoji name is completed');
      await box.pressSequentially(`@${bo.fullName.slice(0, 2)}`);
      await adaPage.getByRole('listbox', { name: 'People', exact: true }).getByRole('option', { name: bo.fullName, exact: true }).click();
      await boxHolds(adaPage, `Nice :thumbs_up: @**${bo.fullName}** `);
      t.pass('the mention is completed');
      await box.fill('');
    });

    t.test('a file chosen with the upload input shows a progress bar and becomes a link', async (t) => {
      await fillStream(adaPage, 'uploads');
      const progress = adaPage.getByRole('progressbar', { name: 'Upload progress', exact: true });
      // The upload is held until the progress bar has been seen, so a fast machine cannot skip it.
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await adaPage.route('**/json/user_uploads', async (route) => {
        await released;
        await route.continue();
      });
      await adaPage
        .getByLabel('Upload files', { exact: true })
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.alloc(200_000, 'a') });
      await progress.waitFor();
      t.pass('the progress bar shows while uploading');
      release();
      await adaPage.waitForFunction(
        (box: { value: string }) => box.value.includes('/user_uploads/'),
        await messageBox(adaPage).elementHandle(),
      );
      await adaPage.unroute('**/json/user_uploads');
      t.match(await messageBox(adaPage).inputValue(), /\[notes\.txt\]\(\/user_uploads\/[^)]+\)/, 'the upload is a link in the message');
      await progress.waitFor({ state: 'detached' });
      t.pass('and went away afterwards');
    });

    t.test('a file dropped on the Message box is uploaded as a link', async (t) => {
      await fillStream(adaPage, 'uploads');
      const box = messageBox(adaPage);
      await box.fill('');
      const files = await adaPage.evaluateHandle(() => {
        const browser = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: string[], name: string, options: { type: string }) => unknown;
        };
        const transfer = new browser.DataTransfer();
        transfer.items.add(new browser.File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
        return transfer;
      });
      await box.dispatchEvent('dragover', { dataTransfer: files });
      await box.dispatchEvent('drop', { dataTransfer: files });
      await adaPage.waitForFunction(
        (element: { value: string }) => element.value.includes('[dropped.txt](/user_uploads/'),
        await box.elementHandle(),
      );
      t.pass('the dropped file is a link in the message');
      await box.fill('');
    });

    // Firefox copies only the text items of a script-made ClipboardEvent's clipboardData, so a
    // test cannot paste a file there; a person's real paste carries it.
    const cannotPasteFiles = currentBrowser() === 'firefox' ? 'Firefox drops the files of a script-made ClipboardEvent' : false;
    t.test('a file pasted into the Message box is uploaded as a link', { skip: cannotPasteFiles }, async (t) => {
      await fillStream(adaPage, 'uploads');
      const box = messageBox(adaPage);
      await box.fill('');
      await box.evaluate((element) => {
        const browser = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: string[], name: string, options: { type: string }) => unknown;
          ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
        };
        const transfer = new browser.DataTransfer();
        transfer.items.add(new browser.File(['pasted text'], 'pasted.txt', { type: 'text/plain' }));
        (element as unknown as { dispatchEvent(event: unknown): boolean }).dispatchEvent(
          new browser.ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
      });
      await adaPage.waitForFunction(
        (element: { value: string }) => element.value.includes('[pasted.txt](/user_uploads/'),
        await box.elementHandle(),
      );
      t.pass('the pasted file is a link in the message');
      await box.fill('');
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
