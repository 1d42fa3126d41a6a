import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient, badRequest } from '../helpers/http';
import { startServer } from '../helpers/server';

// GET/PUT/DELETE /bot_storage (the public server's bot storage, which the Python client's bot
// library uses): each bot's own string keys and values, 10,000,000 characters per bot at most.
// Sent as the Python client sends them: urlencoded, the dict and the lists JSON-encoded.

const LIMIT = 10_000_000;

t.test('bot storage', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const newBot = async (shortName: string): Promise<ApiClient> => {
    const created = await owner.post('/bots', { full_name: `${shortName} bot`, short_name: shortName });
    const user = (await owner.get(`/users/${String(created.body['user_id'])}`)).body['user'] as { email: string };
    return owner.as({ email: user.email, key: String(created.body['api_key']) });
  };
  const bot = await newBot('keeper');
  const otherBot = await newBot('other');
  const human = owner.as(await createMember(owner, 'Human'));
  const storageOf = async (client: ApiClient, keys?: string[]): Promise<unknown> =>
    (await client.get('/bot_storage', keys === undefined ? {} : { keys })).body;
  const put = (client: ApiClient, storage: Record<string, string>) => client.call('PUT', '/bot_storage', { storage }, 'form');

  t.test('errors', async (t) => {
    for (const [name, res] of [
      ['GET', await human.get('/bot_storage')],
      ['PUT', await put(human, { a: 'b' })],
      ['DELETE', await human.call('DELETE', '/bot_storage')],
    ] as const) {
      t.equal(res.status, 400, name);
      t.strictSame(res.body, badRequest('Must be a bot user'), `${name} by a person`);
    }
    const notString = await bot.call('PUT', '/bot_storage', { storage: { foo: [1, 2, 3] } }, 'form');
    t.strictSame(notString.body, {
      result: 'error',
      msg: 'storage["foo"] is not a string',
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'storage',
    });
    const missing = await bot.call('PUT', '/bot_storage', {}, 'form');
    t.strictSame(missing.body, {
      result: 'error',
      msg: "Missing 'storage' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'storage',
    });
    const notJson = await bot.get('/bot_storage', { keys: 'key 1' });
    t.strictSame(notJson.body, badRequest('Argument "keys" is not valid JSON.'));
    t.strictSame(await storageOf(bot), { result: 'success', msg: '', storage: {} }, 'nothing stored');
  });

  t.test('store, read some or all, update, remove some or all', async (t) => {
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    t.strictSame((await put(bot, initial)).body, { result: 'success', msg: '' });
    t.strictSame(await storageOf(bot, ['key 3', 'key 1']), {
      result: 'success',
      msg: '',
      storage: { 'key 3': 'value 3', 'key 1': 'value 1' },
    });
    t.strictSame(await storageOf(bot), { result: 'success', msg: '', storage: initial });
    t.strictSame(await storageOf(otherBot), { result: 'success', msg: '', storage: {} }, "another bot's storage is its own");

    t.equal((await put(bot, { 'key 1': 'new value', 'key 4': 'value 4' })).status, 200);
    const updated = { 'key 1': 'new value', 'key 2': 'value 2', 'key 3': 'value 3', 'key 4': 'value 4' };
    t.strictSame(await storageOf(bot), { result: 'success', msg: '', storage: updated });
    t.strictSame(await storageOf(bot, ['key 1', 'nonexistent key']), badRequest('Key does not exist.'));

    t.strictSame((await bot.call('DELETE', '/bot_storage', { keys: ['key 1', 'key 2'] }, 'form')).body, { result: 'success', msg: '' });
    t.strictSame(await storageOf(bot), { result: 'success', msg: '', storage: { 'key 3': 'value 3', 'key 4': 'value 4' } });
    const partly = await bot.call('DELETE', '/bot_storage', { keys: ['key 3', 'nonexistent key'] }, 'form');
    t.strictSame(partly.body, badRequest('Key does not exist.'));
    t.strictSame(
      await storageOf(bot),
      { result: 'success', msg: '', storage: { 'key 3': 'value 3', 'key 4': 'value 4' } },
      'nothing removed',
    );
    t.strictSame((await bot.call('DELETE', '/bot_storage', {}, 'form')).body, { result: 'success', msg: '' });
    t.strictSame(await storageOf(bot), { result: 'success', msg: '', storage: {} });
  });

  t.test('the limit counts characters of keys and values over the whole storage', async (t) => {
    const key = 'capacity-filling entry';
    t.equal((await put(bot, { [key]: 'x'.repeat(LIMIT - key.length) })).status, 200, 'exactly the limit');
    const over = await put(bot, { 'too much data': 'a few bits too long' });
    t.strictSame(over.body, badRequest(`Request exceeds storage limit by 32 characters. The limit is ${LIMIT} characters.`));
    // An emoji is one character, as the public server counts (not two UTF-16 units).
    t.strictSame(
      (await put(bot, { '😀': '' })).body,
      badRequest(`Request exceeds storage limit by 1 characters. The limit is ${LIMIT} characters.`),
    );
    t.equal(
      (await put(bot, { [key]: 'x'.repeat(LIMIT - key.length - 1), '😀': '' })).status,
      200,
      'replacing an entry counts only the difference',
    );
    t.equal((await put(otherBot, { 'normal entry': 'abcd' })).status, 200, "one bot's storage does not count against another's");
  });
});
