import t from 'tap';
import { browserSkipReason, browserStage, createPerson, fillSignIn, messageFeed, openPage, screenshot } from './harness';

const skip = browserSkipReason();
if (skip !== null) {
  t.plan(0, skip);
} else {
  t.test('signing in through the page', async (t) => {
    const { server, browser, problems } = await browserStage(t);
    const person = await createPerson(server, 'Signer');

    t.test('a wrong password shows the error in an alert and stays on the sign-in page', async (t) => {
      const { context, page } = await openPage(browser, problems, 'wrong password');
      t.teardown(() => context.close());
      await fillSignIn(page, server.baseUrl, person.email, 'not-the-password');
      const alert = page.getByRole('alert').filter({ hasText: 'Your username or password is incorrect' });
      await alert.waitFor();
      t.equal(new URL(page.url()).pathname, '/login');
      t.equal(await page.getByLabel('Email', { exact: true }).inputValue(), person.email, 'the email is kept');
      await screenshot(page, 'sign-in-error');
    });

    t.test('the right password opens the app with its message feed', async (t) => {
      // /api/v1 answers a request without Basic credentials with a Basic challenge, which a browser
      // meets with a sign-in prompt that never closes here: the context answers it once with
      // credentials that fail, after which the page's fetch gets the 401.
      const { context, page } = await openPage(browser, problems, person.email, {
        httpCredentials: { username: 'nobody', password: 'nothing' },
      });
      t.teardown(() => context.close());
      await fillSignIn(page, server.baseUrl, person.email, person.password);
      await page.waitForURL(`${server.baseUrl}/`);
      await messageFeed(page).waitFor({ state: 'attached' });
      t.pass('the Messages feed is shown');
      const cookies = await context.cookies();
      const session = cookies.find((cookie) => cookie.name === 'sessionid');
      t.equal(session?.httpOnly, true, 'the session cookie is HttpOnly');
      t.equal(session?.sameSite, 'Lax');

      // Browser code goes in as text: the tests compile without the DOM library.
      const statuses = await page.evaluate<Record<string, number>>(`(async () => {
        const csrf = document.cookie.split('; ').find((pair) => pair.startsWith('csrftoken='))?.slice('csrftoken='.length) ?? '';
        const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
        const body = 'type=stream&to=nowhere&topic=t&content=x';
        return {
          apiWithSession: (await fetch('/api/v1/users/me')).status,
          jsonWithSession: (await fetch('/json/users/me')).status,
          postWithoutCsrf: (await fetch('/json/messages', { method: 'POST', headers: form, body })).status,
          postWithWrongCsrf: (await fetch('/json/messages', { method: 'POST', headers: { ...form, 'X-CSRF-Token': csrf + 'x' }, body })).status,
        };
      })()`);
      t.strictSame(
        statuses,
        { apiWithSession: 401, jsonWithSession: 200, postWithoutCsrf: 403, postWithWrongCsrf: 403 },
        'a session reaches /json only, and writes only with its CSRF token',
      );
      t.strictSame(problems.problems, [], 'no CSP violation or uncaught error');
    });
  });
}
