import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { browserSkipReason, browserStage, createPerson, createStream, messageFeed, messageItem, signIn } from './harness';

const STREAM = 'long history';
const SEEDED = 120;

/** `History 007`: zero-padded so no message's text includes another's. */
function historyText(index: number): string {
  return `History ${String(index).padStart(3, '0')}`;
}

function streamLink(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: new RegExp(`^${STREAM}(\\s|$)`) });
}

/** The unread count the stream's link shows (0 when it shows none). */
async function unreadCount(page: Page): Promise<number> {
  const name = (await streamLink(page).textContent()) ?? '';
  const match = /(\d+)\s*$/.exec(name);
  return match ? Number(match[1]) : 0;
}

interface FocusSeen {
  label: string;
  outlined: boolean;
}

/** What has the focus: its accessible-ish name, and whether it shows a focus ring (outline or shadow). */
function focusedElement(page: Page): Promise<FocusSeen> {
  return page.evaluate(() => {
    interface Element {
      tagName: string;
      textContent: string;
      getAttribute(name: string): string | null;
    }
    interface Style {
      outlineStyle: string;
      outlineWidth: string;
      boxShadow: string;
    }
    const browser = globalThis as unknown as {
      document: { activeElement: Element | null; body: Element };
      getComputedStyle(element: Element): Style;
    };
    const element = browser.document.activeElement;
    if (!element || element === browser.document.body) return { label: '', outlined: false };
    const style = browser.getComputedStyle(element);
    const outlined = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const label = element.getAttribute('aria-label') || element.textContent.trim() || element.tagName;
    return { label: `${element.tagName}:${label}`, outlined };
  });
}

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('reading a long stream: older messages, unread counts, search, date separators, keyboard', async (t) => {
    const { server, browser, problems } = await browserStage(t);
    const ada = await createPerson(server, 'Ada');
    const joined = await server.admin.post('/users/me/subscriptions', { subscriptions: [{ name: STREAM }] });
    t.equal(joined.status, 200, 'the admin joins the stream');
    await createStream(server, STREAM, [ada]);
    const page = await signIn(browser, server, problems, ada);
    // Waiting in a view without the stream, so the seeded messages stay unread until it is opened.
    await page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: 'Starred', exact: true }).click();
    await page.waitForURL(/#narrow\/is\/starred/);
    for (let index = 1; index <= SEEDED; index++) {
      const content = index === 60 ? `${historyText(index)} mentions a zebracorn` : historyText(index);
      const sent = await server.admin.post('/messages', { type: 'stream', to: STREAM, topic: 'seeded', content });
      if (sent.status !== 200) throw new Error(`seeding failed: ${sent.text}`);
    }

    t.test("the stream's unread count goes down as its messages are seen", async (t) => {
      await page.waitForFunction(([link, seeded]) => (link as unknown as { textContent: string }).textContent.includes(seeded), [
        await streamLink(page).elementHandle(),
        String(SEEDED),
      ] as const);
      t.equal(await unreadCount(page), SEEDED, `the Streams navigation shows ${SEEDED} unread`);
      await streamLink(page).click();
      await messageItem(page, historyText(SEEDED))
        .or(messageItem(page, historyText(1)))
        .first()
        .waitFor();
      await page.waitForFunction(
        ([link, seeded]) => {
          const count = /(\d+)\s*$/.exec((link as unknown as { textContent: string }).textContent);
          return !count || Number(count[1]) < seeded;
        },
        [await streamLink(page).elementHandle(), SEEDED] as const,
      );
      t.ok((await unreadCount(page)) < SEEDED, `fewer are unread now (${await unreadCount(page)})`);
    });

    t.test('scrolling to the top loads older messages until the oldest shows', async (t) => {
      // With nothing unread the stream opens at its newest message, far from the oldest.
      const read = await new ApiClient(server.baseUrl, ada).post('/mark_all_as_read');
      t.equal(read.status, 200, 'everything is read');
      await page.reload();
      await messageItem(page, historyText(SEEDED)).waitFor();
      t.equal(await messageItem(page, historyText(1)).count(), 0, 'the oldest message is not loaded yet');
      const feed = await messageFeed(page).elementHandle();
      // Each poll scrolls to the top, as a person keeps scrolling up, until the oldest is in the list.
      await page.waitForFunction(
        ([element, oldest]) => {
          const box = element as unknown as { scrollTop: number; textContent: string };
          box.scrollTop = 0;
          return box.textContent.includes(oldest);
        },
        [feed, historyText(1)] as const,
        { timeout: 30_000 },
      );
      await messageItem(page, historyText(1)).waitFor();
      t.pass('the oldest message is in the list');
      t.equal(await messageItem(page, 'History ').count(), SEEDED, 'every seeded message is listed once');
    });

    t.test('messages are grouped: one date separator for today and the sender shown once per run', async (t) => {
      const separators = messageFeed(page).getByRole('separator');
      t.equal(await separators.count(), 1, 'one date separator (all sent today)');
      const today = await page.evaluate(() =>
        new Date().toLocaleDateString([], { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' }),
      );
      t.equal((await separators.first().textContent())?.trim(), today, 'it names today');
      const named = await messageItem(page, 'History').locator('.sender-name').count();
      t.equal(named, 1, `the sender is named once for the run of their messages (named: ${named})`);
    });

    t.test('the Search box finds a message', async (t) => {
      const search = page.getByRole('searchbox', { name: 'Search', exact: true });
      await search.fill('zebracorn');
      await search.press('Enter');
      await page.waitForURL(/#narrow\/search\//);
      // The stream view listed the message too: wait until its other messages have left the feed.
      await messageFeed(page).getByRole('article').filter({ hasNotText: 'zebracorn' }).first().waitFor({ state: 'detached' });
      await messageItem(page, 'zebracorn').waitFor();
      t.pass('the search result shows the message');
      t.equal(await messageFeed(page).getByRole('article').count(), 1, 'and only it');
    });

    t.test('the main controls are reached by Tab, each with a visible focus ring', async (t) => {
      await page.reload();
      await messageFeed(page).waitFor({ state: 'attached' });
      await page.getByRole('button', { name: 'Settings', exact: true }).waitFor();
      // One round of the page's tab order: Tab until the focus comes back to the first control.
      // (Past the last control the focus leaves the page; Firefox headless hands it back
      // without marking the page focused, so a second round shows no rings there.)
      const seen: FocusSeen[] = [];
      for (let step = 0; step < 60; step++) {
        await page.keyboard.press('Tab');
        const focused = await focusedElement(page);
        if (seen.length > 0 && focused.label === seen[0]?.label) break;
        seen.push(focused);
      }
      const labels = seen.map((entry) => entry.label);
      for (const wanted of [
        'INPUT:Search',
        'A:All messages',
        'BUTTON:Settings',
        'TEXTAREA:Message',
        'BUTTON:Send',
        'INPUT:Stream',
        'INPUT:Topic',
      ]) {
        t.ok(labels.includes(wanted), `Tab reaches ${wanted}`);
      }
      t.ok(
        labels.some((label) => label.startsWith('A:') && label.includes(STREAM)),
        "Tab reaches the stream's link",
      );
      const unringed = seen.filter((entry) => entry.label !== '' && !entry.outlined).map((entry) => entry.label);
      t.strictSame(unringed, [], 'every focused control shows a focus ring');
    });

    t.test('the page had no CSP violation or uncaught error', async (t) => {
      t.strictSame(problems.problems, []);
    });
  });
}
