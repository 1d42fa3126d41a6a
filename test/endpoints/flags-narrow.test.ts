import t from 'tap';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';

type Message = Record<string, unknown>;

function flagsById(res: ApiResponse): Record<number, unknown> {
  return Object.fromEntries((res.body['messages'] as Message[]).map((m) => [m['id'] as number, m['flags']]));
}

t.test('POST /messages/flags/narrow', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const send = async (params: Record<string, string | number | object>): Promise<number> => {
    const res = await api.as(alice).post('/messages', params);
    if (res.status !== 200) throw new Error(res.text);
    return res.body['id'] as number;
  };
  const d1 = await send({ type: 'direct', to: [bob.id], content: 'one' });
  const d2 = await send({ type: 'direct', to: [bob.id], content: 'two' });
  const d3 = await send({ type: 'direct', to: [bob.id], content: 'three' });
  // bob is not subscribed: the stream's notice and s1 are both history for him.
  const { noticeId } = await createStream(api.as(alice), 'flagged');
  const s1 = await send({ type: 'stream', to: 'flagged', topic: 't', content: 'history for bob' });

  const conversation = [{ operator: 'dm', operand: [alice.id] }];
  const flagsNarrow = (params: Record<string, string | number | boolean | object>) =>
    api.as(bob).post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: conversation,
      op: 'add',
      flag: 'read',
      ...params,
    });
  const bobsView = async (narrow: object[]) =>
    flagsById(await api.as(bob).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow }));

  t.test('errors', async (t) => {
    t.test('an unknown or internal flag is Invalid flag', async (t) => {
      const res = await flagsNarrow({ flag: 'shiny' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Invalid flag: 'shiny'", code: 'BAD_REQUEST' });
    });
    t.test('flags the server sets are not editable', async (t) => {
      for (const flag of ['mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical']) {
        const res = await flagsNarrow({ flag });
        t.strictSame(res.body, { result: 'error', msg: `Flag not editable: '${flag}'`, code: 'BAD_REQUEST' });
      }
    });
    t.test('op is add or remove', async (t) => {
      const res = await flagsNarrow({ op: 'toggle' });
      t.strictSame(res.body, { result: 'error', msg: "Invalid message flag operation: 'toggle'", code: 'BAD_REQUEST' });
    });
    t.test('anchor, num_before, num_after and narrow are checked as for GET /messages', async (t) => {
      const missing = await api
        .as(bob)
        .post('/messages/flags/narrow', { num_before: 0, num_after: 1, narrow: [], op: 'add', flag: 'read' });
      t.strictSame(missing.body, {
        result: 'error',
        msg: "Missing 'anchor' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'anchor',
      });
      t.strictSame((await flagsNarrow({ anchor: 'soon' })).body, { result: 'error', msg: 'Invalid anchor', code: 'BAD_REQUEST' });
      const bad = await flagsNarrow({ narrow: [['sender', 'ghost@example.com']] });
      t.strictSame(bad.body, {
        result: 'error',
        msg: 'Invalid narrow operator: unknown user ghost@example.com',
        code: 'BAD_NARROW',
        desc: 'unknown user ghost@example.com',
      });
    });
  });

  t.test('marks a range read, then reports nothing more to update', async (t) => {
    const first = await flagsNarrow({ anchor: d1, num_before: 0, num_after: 1 });
    t.equal(first.status, 200);
    t.strictSame(first.body, {
      result: 'success',
      msg: '',
      processed_count: 2,
      updated_count: 2,
      first_processed_id: d1,
      last_processed_id: d2,
      found_oldest: true,
      found_newest: false,
    });
    t.strictSame(await bobsView(conversation), { [d1]: ['read'], [d2]: ['read'], [d3]: [] });
    const again = await flagsNarrow({});
    hasFields(t, again.body, {
      processed_count: 3,
      updated_count: 1,
      first_processed_id: d1,
      last_processed_id: d3,
      found_oldest: true,
      found_newest: true,
    });
  });
  t.test('removes a flag; include_anchor false leaves the anchor alone', async (t) => {
    const res = await flagsNarrow({ anchor: d3, num_before: 5, num_after: 0, include_anchor: false, op: 'remove' });
    hasFields(t, res.body, { processed_count: 2, updated_count: 2, first_processed_id: d1, last_processed_id: d2, found_oldest: true });
    t.strictSame(await bobsView(conversation), { [d1]: [], [d2]: [], [d3]: ['read'] });
  });
  t.test('first_unread anchors at the oldest unread message', async (t) => {
    const res = await flagsNarrow({ anchor: 'first_unread', num_before: 0, num_after: 0, flag: 'starred' });
    hasFields(t, res.body, { processed_count: 1, updated_count: 1, first_processed_id: d1, last_processed_id: d1 });
    t.strictSame((await bobsView([{ operator: 'is', operand: 'starred' }]))[d1], ['starred']);
  });
  t.test('an empty range answers null IDs', async (t) => {
    const res = await flagsNarrow({
      narrow: [{ operator: 'dm', operand: server.owner.email }],
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
    });
    t.strictSame(res.body, {
      result: 'success',
      msg: '',
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
      found_oldest: true,
      found_newest: true,
    });
  });
  t.test("starring stream history creates the user's historical row; reading it changes nothing", async (t) => {
    const stream = [{ operator: 'stream', operand: 'flagged' }];
    const read = await flagsNarrow({ narrow: stream });
    hasFields(t, read.body, { processed_count: 2, updated_count: 0 }, 'history already reads as read');
    const unread = await flagsNarrow({ narrow: stream, op: 'remove' });
    hasFields(t, unread.body, { processed_count: 2, updated_count: 0 }, 'history is not marked unread');
    const starred = await flagsNarrow({ narrow: stream, flag: 'starred' });
    hasFields(t, starred.body, { processed_count: 2, updated_count: 2, first_processed_id: noticeId, last_processed_id: s1 });
    t.strictSame(await bobsView([{ operator: 'is', operand: 'starred' }]), {
      [d1]: ['starred'],
      [noticeId]: ['read', 'starred', 'historical'],
      [s1]: ['read', 'starred', 'historical'],
    });
  });
  t.test('collapsed is editable too', async (t) => {
    const res = await flagsNarrow({ flag: 'collapsed', anchor: d2, num_before: 0, num_after: 0 });
    hasFields(t, res.body, { processed_count: 1, updated_count: 1 });
    t.strictSame((await bobsView(conversation))[d2], ['collapsed']);
  });
  t.test('a huge range is accepted and bounded at 5000 messages, num_before first', async (t) => {
    const res = await flagsNarrow({ num_before: 100000, num_after: 100000, anchor: d2 });
    t.equal(res.status, 200);
    hasFields(t, res.body, { processed_count: 2, first_processed_id: d1, last_processed_id: d2, found_oldest: true, found_newest: false });
  });
});
