import { z } from 'zod';
import { doAddAlertWords, doRemoveAlertWords } from '../actions/alert-words';
import { json } from '../lib/params';
import { userRoute } from '../lib/route';
import { alertWordsOf } from '../queries/alert-words';
import { alertWordsSchema } from '../schemas/results';

const words = json(z.array(z.string()));

/** GET /users/me/alert_words. */
export const getAlertWords = userRoute(z.object({}), alertWordsSchema, ({ realm, user }) => ({
  alert_words: alertWordsOf(realm, user.id),
}));

/** POST /users/me/alert_words. */
export const postAlertWords = userRoute(z.object({ alert_words: words }), alertWordsSchema, async ({ realm, user }, p) => ({
  alert_words: await doAddAlertWords(realm, user, p.alert_words),
}));

/** DELETE /users/me/alert_words. */
export const deleteAlertWords = userRoute(z.object({ alert_words: words }), alertWordsSchema, async ({ realm, user }, p) => ({
  alert_words: await doRemoveAlertWords(realm, user, p.alert_words),
}));
