import t from 'tap';
import { z } from 'zod';
import { BYTES } from '../../workers/lib/route';
import { ROUTES } from '../../workers/routes';

// Every route declares what it answers (workers/lib/route.ts): a zod object for its success
// body, or BYTES. Strict, so an added field fails.
const FILE_ROUTES = [
  'GET /openapi.json',
  'GET /~/user_uploads/{realm_id}/{dir}/{random}/{filename}',
  'GET /~/user_uploads/temporary/{token}/{filename}',
  'GET /~/avatar/{email_or_id}',
  'GET /~/avatar/{email_or_id}/medium',
  'GET /~/user_avatars/{realm_id}/{avatar_file}',
  'GET /~/user_avatars/{realm_id}/emoji/images/still/{emoji_file}',
  'GET /~/user_avatars/{realm_id}/emoji/images/{emoji_file}',
  'GET /~/thumbnail',
];

t.test('every route declares its result: a strict zod object, or bytes for files', async (t) => {
  const missing: string[] = [];
  const notStrict: string[] = [];
  const bytes: string[] = [];
  for (const [routeId, route] of Object.entries(ROUTES)) {
    const result: unknown = route.result;
    if (result === BYTES) bytes.push(routeId);
    else if (!(result instanceof z.ZodObject)) missing.push(routeId);
    else if (!(result.def.catchall instanceof z.ZodNever)) notStrict.push(routeId);
  }
  t.strictSame(missing, [], 'no route without a result schema');
  t.strictSame(notStrict, [], 'no route with an open result schema');
  t.strictSame(bytes.sort(), [...FILE_ROUTES].sort(), 'exactly the file routes answer bytes');
});

t.test('PATCH /realm answers under exactly the names it takes', async (t) => {
  const route = ROUTES['PATCH /realm'];
  const answered = route.result === BYTES ? [] : Object.keys(route.result.shape);
  t.strictSame(answered.sort(), Object.keys(route.params.shape).sort());
});
