import t from 'tap';
import type { Page } from 'playwright-core';
import { browserSkipReason, messageItem, screenshot, sendToStream, twoPeopleInAStream } from './harness';

const STREAM = 'highlighting tests';

// The page's window, as the function passed to `evaluate` sees it (the tests compile without the DOM library).
type StyleOf = { getComputedStyle(element: unknown): { color: string } };

/** The computed color of the first element matching `selector` inside the message holding `marker`. */
async function colorOf(page: Page, marker: string, selector: string): Promise<string> {
  return messageItem(page, marker)
    .locator(selector)
    .first()
    .evaluate((element) => (globalThis as unknown as StyleOf).getComputedStyle(element).color);
}

async function chooseScheme(page: Page, label: 'Dark' | 'Light', scheme: 'dark' | 'light'): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Personal settings', exact: true });
  await settings.getByRole('combobox', { name: 'Color scheme', exact: true }).selectOption({ label });
  await page.locator(`html[data-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
  await settings.getByRole('button', { name: 'Close', exact: true }).click();
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('highlighted code is colored by its token classes in both themes', async (t) => {
    const { problems, adaPage } = await twoPeopleInAStream(t, STREAM);
    const marker = `highlight ${Date.now()}`;
    await sendToStream(adaPage, STREAM, 'code', `${marker}\n\`\`\`python\ndef answer():\n    return 42\n\`\`\``);
    await messageItem(adaPage, marker).locator('.codehilite .k').first().waitFor();

    for (const [label, scheme] of [
      ['Light', 'light'],
      ['Dark', 'dark'],
    ] as const) {
      await chooseScheme(adaPage, label, scheme);
      const keyword = await colorOf(adaPage, marker, '.codehilite .k');
      const plain = await colorOf(adaPage, marker, '.codehilite pre');
      t.not(keyword, plain, `${scheme}: the keyword "def" (${keyword}) is not the plain text's color (${plain})`);
      const number = await colorOf(adaPage, marker, '.codehilite .mi');
      t.not(number, plain, `${scheme}: the number 42 (${number}) is not the plain text's color`);
      await screenshot(adaPage, `highlighting-${scheme}`);
    }

    t.test('the page had no CSP violation or uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
