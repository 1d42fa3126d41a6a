import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Response } from 'playwright-core';
import { REPO_ROOT } from '../helpers/server';
import { browserSkipReason, browserStage, currentBrowser, openPage, PageProblems, screenshot } from './harness';

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test(`the built pages load in ${currentBrowser()} under the strict CSP`, async (t) => {
    const { server, browser, problems } = await browserStage(t);

    t.test('the sign-in page loads its hashed files, brotli-compressed, without a CSP violation', async (t) => {
      const { context, page } = await openPage(browser, problems, 'visitor');
      t.teardown(() => context.close());
      const responses: Response[] = [];
      page.on('response', (response) => responses.push(response));
      const loaded = await page.goto(`${server.baseUrl}/login`, { waitUntil: 'load' });
      t.equal(loaded?.status(), 200);
      t.match(loaded?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
      const files = responses.filter((response) => new URL(response.url()).pathname.startsWith('/static/'));
      t.ok(
        files.some((response) => /\/static\/login-[A-Z0-9]+\.js$/.test(response.url())),
        'the hashed script is fetched',
      );
      for (const response of files) {
        t.equal(response.status(), 200, response.url());
        t.equal(response.headers()['content-encoding'], 'br', `${response.url()} comes brotli-compressed`);
      }
      await page.getByLabel('Email', { exact: true }).waitFor();
      await page.getByLabel('Password', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await screenshot(page, 'sign-in');
      t.strictSame(problems.problems, [], 'no CSP violation or uncaught error');
    });

    t.test('the app page without a session lands on the sign-in page', async (t) => {
      const { context, page } = await openPage(browser, problems, 'visitor');
      t.teardown(() => context.close());
      await page.goto(`${server.baseUrl}/`);
      t.equal(new URL(page.url()).pathname, '/login');
    });

    t.test('the CSP refuses inline script, and the test harness reports it', async (t) => {
      const watched = new PageProblems();
      const { context, page } = await openPage(browser, watched, 'visitor');
      t.teardown(() => context.close());
      await page.goto(`${server.baseUrl}/login`);
      // Browser code goes in as text: the tests compile without the DOM library.
      const ran = await page.evaluate<string>(`(() => {
        const script = document.createElement('script');
        script.textContent = 'document.body.dataset.inlineRan = "yes"';
        document.body.append(script);
        return document.body.dataset.inlineRan ?? 'no';
      })()`);
      t.equal(ran, 'no', 'the inline script did not run');
      await watched.seen(/Content Security Policy/);
      t.ok(
        watched.problems.some((problem) => /Content Security Policy/.test(problem)),
        'the violation is caught',
      );
    });

    t.test("the app stylesheet's KaTeX fonts load under the CSP", async (t) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'build', 'web', 'manifest.json'), 'utf8')) as {
        files: Record<string, string>;
      };
      const appCss = manifest.files['app.css'];
      if (appCss === undefined) throw new Error('the build has no app.css');
      const { context, page } = await openPage(browser, problems, 'visitor');
      t.teardown(() => context.close());
      await page.goto(`${server.baseUrl}/login`);
      const loadedFaces = await page.evaluate<string[]>(`(async (href) => {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = href;
        const ready = new Promise((resolve) => link.addEventListener('load', resolve));
        document.head.append(link);
        await ready;
        const faces = await document.fonts.load('20px KaTeX_Main', 'x');
        return faces.map((face) => face.family);
      })(${JSON.stringify(appCss)})`);
      t.ok(loadedFaces.includes('KaTeX_Main'), 'KaTeX_Main is loaded from its hashed file');
      t.strictSame(problems.problems, [], 'no CSP violation or uncaught error');
    });
  });
}
