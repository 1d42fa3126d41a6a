import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { startServer } from '../helpers/server';

/**
 * Every list, number and path ID a request carries is bounded before a shard works on it: a
 * request's cost must not grow with what it repeats, and bad input is a 400 (or, for a path
 * that is no URL of the API, a 404), never a 500.
 */
const invalid = (name: string, msg: string) => ({ result: 'error', msg, code: 'REQUEST_VARIABLE_INVALID', var_name: name });
const answer = (res: ApiResponse) => ({ status: res.status, body: res.body });

t.test('bounded inputs', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const ownerId = (await owner.get('/users/me')).body['user_id'] as number;
  const member = await createMember(owner, 'Member');
  const sent = await owner.post('/messages', { type: 'stream', to: 'general', topic: 'bounds', content: 'hello' });
  const messageId = sent.body['id'] as number;

  t.test('direct message recipients are de-duplicated, then at most 1000', async (t) => {
    const repeated = await owner.post('/messages', {
      type: 'direct',
      to: JSON.stringify(Array<number>(200_000).fill(member.id)),
      content: 'once',
    });
    t.equal(repeated.status, 200);
    const fetched = await owner.get(`/messages/${String(repeated.body['id'])}`);
    const recipients = (fetched.body['message'] as { display_recipient: { id: number }[] }).display_recipient.map((r) => r.id);
    t.strictSame(
      recipients.sort((a, b) => a - b),
      [ownerId, member.id].sort((a, b) => a - b),
    );
    const distinct = Array.from({ length: 1001 }, (_, i) => i + 1);
    const tooMany = await owner.post('/messages', { type: 'direct', to: JSON.stringify(distinct), content: 'many' });
    t.strictSame(answer(tooMany), { status: 400, body: invalid('to', 'to has too many items (limit: 1000)') });
  });

  t.test('a JSON list holds at most 10,000 items, looked at before any of them', async (t) => {
    const principals = Array<number>(10_001).fill(member.id);
    const subscribe = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals });
    t.strictSame(answer(subscribe), { status: 400, body: invalid('principals', 'principals has too many items (limit: 10000)') });
    const unsubscribe = await owner.call('DELETE', '/users/me/subscriptions', { subscriptions: ['general'], principals });
    t.strictSame(answer(unsubscribe), { status: 400, body: invalid('principals', 'principals has too many items (limit: 10000)') });
    const repeated = await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'general' }],
      principals: Array<number>(10_000).fill(member.id),
    });
    t.strictSame(answer(repeated), {
      status: 200,
      body: { result: 'success', msg: '', subscribed: {}, already_subscribed: { [member.email]: ['general'] } },
    });
  });

  t.test('one request subscribes to at most 100 streams and 10,000 stream × user pairs', async (t) => {
    const streams = Array.from({ length: 101 }, (_, i) => ({ name: `bounded ${i}` }));
    const tooManyStreams = await owner.post('/users/me/subscriptions', { subscriptions: streams });
    t.strictSame(answer(tooManyStreams), { status: 400, body: invalid('subscriptions', 'subscriptions has too many items (limit: 100)') });
    const principals = [ownerId, member.id, ...Array.from({ length: 199 }, (_, i) => 100_000 + i)];
    const tooManyPairs = await owner.post('/users/me/subscriptions', { subscriptions: streams.slice(0, 50), principals });
    t.strictSame(answer(tooManyPairs), {
      status: 400,
      body: { result: 'error', msg: 'Too many subscriptions in one request (limit: 10000 streams × users).', code: 'BAD_REQUEST' },
    });
    const listed = await owner.get('/users/me/subscriptions');
    const names = (listed.body['subscriptions'] as { name: string }[]).map((s) => s.name);
    t.strictSame(
      names.filter((name) => name.startsWith('bounded ')),
      [],
      'no stream was created',
    );
  });

  t.test('message IDs are de-duplicated, then at most 5000', async (t) => {
    const repeated = await owner.post('/messages/flags', { messages: Array<number>(9000).fill(messageId), op: 'add', flag: 'starred' });
    t.strictSame(answer(repeated), { status: 200, body: { result: 'success', msg: '', messages: [messageId] } });
    const many = Array.from({ length: 5001 }, (_, i) => messageId + i);
    const flags = await owner.post('/messages/flags', { messages: many, op: 'add', flag: 'starred' });
    t.strictSame(answer(flags), { status: 400, body: invalid('messages', 'messages has too many items (limit: 5000)') });
    const matches = await owner.get('/messages/matches_narrow', { msg_ids: many, narrow: [] });
    t.strictSame(answer(matches), { status: 400, body: invalid('msg_ids', 'msg_ids has too many items (limit: 5000)') });
  });

  t.test('a narrow holds at most 100 terms', async (t) => {
    const searches = Array.from({ length: 1000 }, (_, i) => ({ operator: 'search', operand: `word${i}` }));
    const streams = Array.from({ length: 10_000 }, () => ({ operator: 'stream', operand: 'general' }));
    const tooMany = invalid('narrow', 'narrow has too many items (limit: 100)');
    for (const narrow of [searches, streams]) {
      const range = { anchor: 'newest', num_before: 10, num_after: 0, narrow };
      // In the body: 10,000 terms make a query string longer than a URL may be.
      t.strictSame(answer(await owner.call('GET', '/messages', range, 'form')), { status: 400, body: tooMany });
      const matches = await owner.call('GET', '/messages/matches_narrow', { msg_ids: [messageId], narrow }, 'form');
      t.strictSame(answer(matches), { status: 400, body: tooMany });
      const flags = await owner.post('/messages/flags/narrow', { ...range, op: 'add', flag: 'read' });
      t.strictSame(answer(flags), { status: 400, body: tooMany });
    }
    const hundred = await owner.get('/messages/matches_narrow', { msg_ids: [messageId], narrow: searches.slice(0, 100) });
    t.strictSame(answer(hundred), { status: 200, body: { result: 'success', msg: '', messages: {} } });
    const streamTerms = await owner.get('/messages/matches_narrow', { msg_ids: [messageId], narrow: streams.slice(0, 100) });
    t.equal(streamTerms.status, 200);
    t.strictSame(Object.keys(streamTerms.body['messages'] as object), [String(messageId)]);
  });

  t.test('numbers are bounded: a draft timestamp past year 9999 is refused', async (t) => {
    const draft = { type: '', to: [], topic: '', content: 'c', timestamp: 1e308 };
    const created = await owner.post('/drafts', { drafts: [draft] });
    t.strictSame(answer(created), { status: 400, body: invalid('drafts', 'drafts[0]["timestamp"] is too large') });
    const ok = await owner.post('/drafts', { drafts: [{ ...draft, timestamp: 1_700_000_000.5 }] });
    t.equal(ok.status, 200);
    const draftId = (ok.body['ids'] as number[])[0] as number;
    const edited = await owner.call('PATCH', `/drafts/${String(draftId)}`, { draft });
    t.strictSame(answer(edited), { status: 400, body: invalid('draft', 'draft["timestamp"] is too large') });
    const scheduled = await owner.post('/scheduled_messages', {
      type: 'stream',
      to: 1,
      topic: 't',
      content: 'later',
      scheduled_delivery_timestamp: 2 ** 53 - 1,
    });
    t.strictSame(answer(scheduled), {
      status: 400,
      body: invalid('scheduled_delivery_timestamp', 'scheduled_delivery_timestamp is too large'),
    });
  });

  t.test('a path ID is digits only; anything else is no URL of the API', async (t) => {
    const notFound = { status: 404, body: { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' } };
    for (const id of ['%201%20', '1%20', '+1', '1e0', '0x1', '1.0', '99999999999999999']) {
      t.strictSame(answer(await owner.get(`/streams/${id}`)), notFound, `/streams/${id}`);
      t.strictSame(answer(await owner.get(`/messages/${id}`)), notFound, `/messages/${id}`);
    }
    const stream = await owner.get('/streams/1');
    t.equal(stream.status, 200);
  });
});
