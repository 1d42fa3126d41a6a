import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, messageItem, screenshot, sendToStream, twoPeopleInAStream } from './harness';

const STREAM = 'emoji image tests';

async function chooseEmojiSet(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Personal settings', exact: true });
  const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().endsWith('/json/settings'));
  await settings.getByRole('combobox', { name: 'Emoji set', exact: true }).selectOption({ label });
  await saved;
  await settings.getByRole('button', { name: 'Close', exact: true }).click();
}

/** Waits until `image` has loaded, and returns where it came from. */
async function loadedImage(page: Page, image: Locator): Promise<string> {
  await image.waitFor();
  await page.waitForFunction(
    (img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0,
    await image.elementHandle(),
  );
  return new URL((await image.getAttribute('src')) ?? '', 'http://page').pathname;
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test("unicode emoji show as images of the person's emoji set", async (t) => {
    const { problems, adaPage, boPage } = await twoPeopleInAStream(t, STREAM);
    const marker = `emoji ${Date.now()}`;
    await sendToStream(adaPage, STREAM, 'faces', `${marker} :thumbs_up: :heart:`);
    const message = messageItem(boPage, marker);

    t.test('in a message, each emoji is an image of the modern set, named as the server named it', async (t) => {
      const thumbs = message.locator('span.emoji[aria-label="thumbs up"] img');
      t.match(await loadedImage(boPage, thumbs), /^\/static\/emoji\/vendora-[\d.]+\/1f44d\.png$/);
      t.equal(await thumbs.getAttribute('alt'), '👍', 'copying the message copies the characters');
      t.match(await loadedImage(boPage, message.locator('span.emoji[aria-label="heart"] img')), /\/2764\.png$/);
    });

    t.test('a reaction and the picker show the same images', async (t) => {
      await message.hover();
      await message.getByRole('button', { name: 'Add reaction', exact: true }).click();
      const search = boPage
        .getByRole('searchbox', { name: 'Search emoji', exact: true })
        .or(boPage.getByRole('textbox', { name: 'Search emoji', exact: true }));
      await search.fill('thumbs_up');
      const choice = boPage.getByRole('button', { name: 'thumbs_up', exact: true });
      t.match(await loadedImage(boPage, choice.locator('img')), /\/1f44d\.png$/, 'the picker');
      await screenshot(boPage, 'emoji-images-picker');
      await choice.click();
      const reaction = adaPage.getByRole('button', { name: 'thumbs_up: 1', exact: true });
      t.match(await loadedImage(adaPage, reaction.locator('img')), /^\/static\/emoji\/vendora-[\d.]+\/1f44d\.png$/, 'the reaction');
      await screenshot(adaPage, 'emoji-images');
    });

    t.test('the alternative set shows its own images, and plain text the characters', async (t) => {
      await chooseEmojiSet(boPage, 'Alternative');
      t.match(
        await loadedImage(boPage, message.locator('span.emoji[aria-label="thumbs up"] img')),
        /^\/static\/emoji\/vendorb-[\d.]+\/1f44d\.png$/,
      );
      await chooseEmojiSet(boPage, 'Plain text');
      const thumbs = message.locator('span.emoji[aria-label="thumbs up"]');
      await thumbs.locator('img').waitFor({ state: 'detached' });
      t.equal(await thumbs.textContent(), '👍', 'the characters, drawn by the system font');
      const reaction = boPage.getByRole('button', { name: 'thumbs_up: 1', exact: true });
      t.equal(await reaction.locator('img').count(), 0, 'no image in the reaction either');
      t.equal(await reaction.locator('.emoji-glyph').textContent(), '👍');
    });

    t.test('neither page had a CSP violation or an uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
