import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, messageItem, screenshot, twoPeopleInAStream } from './harness';

const STREAM = 'edit history';

/** The parts of the page's DOM read inside the page (the tests compile without the DOM library). */
interface PageElement {
  textContent: string | null;
  className: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
type PageWindow = { getComputedStyle(element: unknown): { textDecorationLine: string; backgroundColor: string } };

interface ShownVersion {
  heading: string;
  time: string | null;
  changes: string[];
  /** The version's content as text, or null when the version shows none. */
  content: string | null;
  marks: { class: string; role: string | null; text: string; decoration: string }[];
}

/** What the dialog shows of each version, in order. */
function shownVersions(dialog: Locator): Promise<ShownVersion[]> {
  return dialog.locator('.edit-history > li').evaluateAll((items: PageElement[]) => {
    const view = globalThis as unknown as PageWindow;
    return items.map((item) => {
      const content = item.querySelector('.message-content');
      return {
        heading: item.querySelector('.edit-history-heading > span')?.textContent ?? '',
        time: item.querySelector('.edit-history-heading > time')?.getAttribute('datetime') ?? null,
        changes: [...item.querySelectorAll('.edit-history-change')].map((change) => change.textContent ?? ''),
        content: content?.textContent ?? null,
        marks: [...(content?.querySelectorAll('.highlight_text_inserted, .highlight_text_deleted') ?? [])].map((mark) => ({
          class: mark.className,
          role: mark.getAttribute('role'),
          text: mark.textContent ?? '',
          decoration: view.getComputedStyle(mark).textDecorationLine,
        })),
      };
    });
  });
}

type PageDocument = { document: { activeElement: unknown } };

function hasFocus(control: Locator): Promise<boolean> {
  return control.evaluate((element) => element === (globalThis as unknown as PageDocument).document.activeElement);
}

/** Waits until `control` has the keyboard focus. */
async function isFocused(page: Page, control: Locator): Promise<void> {
  const handle = await control.elementHandle();
  await page.waitForFunction((element) => element === (globalThis as unknown as PageDocument).document.activeElement, handle);
}

async function menuItems(page: Page, message: Locator): Promise<string[]> {
  await message.hover();
  await message.getByRole('button', { name: 'Message actions', exact: true }).click();
  const menu = page.getByRole('menu', { name: 'Message actions', exact: true });
  const names = await menu.getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return names;
}

const isoTime = (timestamp: unknown): string => new Date(Number(timestamp) * 1000).toISOString();

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test("a message's edit history, from its (edited) mark and its menu", async (t) => {
    const { server, problems, ada, bo, boPage } = await twoPeopleInAStream(t, STREAM);
    const adaApi = new ApiClient(server.baseUrl, ada);
    const sent = await adaApi.post('/messages', { type: 'stream', to: STREAM, topic: 'plans', content: 'Meet at noon today' });
    const id = Number(sent.body['id']);
    t.equal((await adaApi.call('PATCH', `/messages/${id}`, { content: 'Meet at two today please' })).status, 200, 'content edited');
    const moved = await adaApi.call('PATCH', `/messages/${id}`, { topic: 'schedule', send_notification_to_new_thread: false });
    t.equal(moved.status, 200, 'topic changed');
    const history = (await adaApi.get(`/messages/${id}/history`)).body['message_history'] as { timestamp: number }[];

    const message = messageItem(boPage, 'Meet at two today please');
    await message.getByRole('button', { name: '(edited)', exact: true }).waitFor();
    const dialog = boPage.getByRole('dialog', { name: 'Edit history', exact: true });
    const expected: ShownVersion[] = [
      { heading: `Posted by ${ada.fullName}`, time: isoTime(history[0]?.timestamp), changes: [], content: 'Meet at noon today', marks: [] },
      {
        heading: `Edited by ${ada.fullName}`,
        time: isoTime(history[1]?.timestamp),
        changes: [],
        content: 'Meet at two noon today please',
        marks: [
          { class: 'highlight_text_inserted', role: 'insertion', text: 'two', decoration: 'underline' },
          { class: 'highlight_text_deleted', role: 'deletion', text: 'noon', decoration: 'line-through' },
          { class: 'highlight_text_inserted', role: 'insertion', text: 'please', decoration: 'underline' },
        ],
      },
      {
        heading: `Moved by ${ada.fullName}`,
        time: isoTime(history[2]?.timestamp),
        changes: ['Topic changed from plans to schedule'],
        content: null,
        marks: [],
      },
    ];

    t.test('(edited) opens the versions, oldest first, with the marks of what each edit changed; Esc closes', async (t) => {
      const edited = message.getByRole('button', { name: '(edited)', exact: true });
      await edited.click();
      await dialog.waitFor();
      await dialog.locator('.edit-history > li').nth(2).waitFor();
      t.strictSame(await shownVersions(dialog), expected);
      await screenshot(boPage, 'edit-history');
      await boPage.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await isFocused(boPage, edited);
      t.pass('Escape closes it and the focus is back on (edited)');
    });

    t.test('Edit history in the message menu opens the same list; Close closes it', async (t) => {
      await message.hover();
      const actions = message.getByRole('button', { name: 'Message actions', exact: true });
      await actions.click();
      await boPage.getByRole('menuitem', { name: 'Edit history', exact: true }).click();
      await dialog.locator('.edit-history > li').nth(2).waitFor();
      t.strictSame(await shownVersions(dialog), expected);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await isFocused(boPage, actions);
      t.pass('the focus is back on the message menu');
    });

    t.test('the menu item is reached with the keyboard', async (t) => {
      const actions = message.getByRole('button', { name: 'Message actions', exact: true });
      await actions.focus();
      await boPage.keyboard.press('Enter');
      const item = boPage.getByRole('menuitem', { name: 'Edit history', exact: true });
      await isFocused(boPage, boPage.getByRole('menuitem').first());
      // Down the menu to the item, as far as the menu is long.
      for (let step = 0; step < (await boPage.getByRole('menuitem').count()) && !(await hasFocus(item)); step++) {
        await boPage.keyboard.press('ArrowDown');
      }
      t.equal(await hasFocus(item), true, 'the arrows reach Edit history');
      await boPage.keyboard.press('Enter');
      await dialog.locator('.edit-history > li').nth(2).waitFor();
      t.strictSame(await shownVersions(dialog), expected);
      await boPage.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await isFocused(boPage, actions);
      t.pass('opened and closed from the keyboard');
    });

    t.test("in the dark theme the marks take the dark theme's colours", async (t) => {
      const boApi = new ApiClient(server.baseUrl, bo);
      t.equal((await boApi.call('PATCH', '/settings', { color_scheme: 2 })).status, 200, 'Bo chooses the dark theme');
      await boPage.locator('html[data-color-scheme="dark"]').waitFor({ state: 'attached' });
      await message.getByRole('button', { name: '(edited)', exact: true }).click();
      const marks = dialog.locator('.highlight_text_inserted, .highlight_text_deleted');
      await marks.nth(2).waitFor();
      const backgrounds = await marks.evaluateAll((found: unknown[]) =>
        found.map((mark) => (globalThis as unknown as PageWindow).getComputedStyle(mark).backgroundColor),
      );
      t.strictSame(backgrounds, ['rgb(31, 61, 37)', 'rgb(75, 35, 38)', 'rgb(31, 61, 37)'], 'dark green, dark red, dark green');
      await screenshot(boPage, 'edit-history-dark');
      await boPage.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await boApi.call('PATCH', '/settings', { color_scheme: 3 });
      await boPage.locator('html[data-color-scheme="light"]').waitFor({ state: 'attached' });
    });

    t.test('an organization that turns edit history off is offered neither the menu item nor the (edited) button', async (t) => {
      const before = await menuItems(boPage, message);
      t.ok(before.includes('Edit history'), 'offered while allowed');
      t.equal((await server.admin.call('PATCH', '/realm', { allow_edit_history: false })).status, 200);
      await message.getByRole('button', { name: '(edited)', exact: true }).waitFor({ state: 'detached' });
      t.equal(await message.getByText('(edited)', { exact: true }).count(), 1, '(edited) is still said');
      t.strictSame(
        await menuItems(boPage, message),
        before.filter((name) => name !== 'Edit history'),
      );
    });

    t.test('the page had no CSP violation or uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
