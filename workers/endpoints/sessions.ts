import { z } from 'zod';
import { authenticateSession, checkCsrf, doLogin, doLogout } from '../actions/sessions';
import { openRoute } from '../lib/route';
import { clearedSessionCookies, sessionCookies } from '../lib/session-cookies';
import { EMPTY, id } from '../schemas/objects';

/**
 * POST /login (root, urlencoded from the sign-in page): the rules and errors of
 * POST /fetch_api_key, and on success a session in two cookies instead of an API key.
 */
export const postLogin = openRoute(
  z.object({ username: z.string(), password: z.string() }),
  z.strictObject({ user_id: id }),
  async (ctx, { username, password }) => {
    const session = await doLogin(ctx.realm, username, password);
    ctx.cookies.push(...sessionCookies(session.token, session.csrfToken, ctx.frame.secure, ctx.realm.sessionSettings.idleMs));
    return { user_id: session.user.id };
  },
);

/** POST /logout (root): needs the session and its CSRF token; ends it and clears the cookies. */
export const postLogout = openRoute(z.object({}), EMPTY, async (ctx) => {
  const { session } = await authenticateSession(ctx.realm, ctx.frame.sessionCookie);
  checkCsrf(session, ctx.frame.csrfToken);
  await doLogout(ctx.realm, session);
  ctx.cookies.push(...clearedSessionCookies(ctx.frame.secure));
  return {};
});
