import t from 'tap';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';
import { setRole } from '../helpers/people';
import { hasFields } from '../helpers/exact';

type Message = Record<string, unknown>;
type Narrow = (Record<string, unknown> | [string, string])[];

const NEWEST = 10_000_000_000_000_000;

function ids(res: ApiResponse): number[] {
  return (res.body['messages'] as Message[]).map((m) => m['id'] as number);
}

function badNarrow(desc: string): Record<string, unknown> {
  return { result: 'error', msg: `Invalid narrow operator: ${desc}`, code: 'BAD_NARROW', desc };
}

t.test('GET /messages', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const carol = await createMember(api, 'Carol');
  const dave = await createMember(api, 'Dave');
  const guest = await createMember(api, 'Guest');
  await setRole(api, guest.id, 600);

  const as = (who: { email: string; key: string }) => api.as(who);
  const fetch = (who: { email: string; key: string }, narrow: Narrow, extra: Record<string, string | number | boolean> = {}) =>
    as(who).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow, ...extra });
  const send = async (who: { email: string; key: string }, params: Record<string, string | number | object>): Promise<number> => {
    const res = await as(who).post('/messages', params);
    if (res.status !== 200) throw new Error(res.text);
    return res.body['id'] as number;
  };

  // alice creates a public stream; nobody else subscribes, so the others read it as history.
  // Its first message is the notification bot's new-stream notice.
  const { streamId, noticeId: notice } = await createStream(as(alice), 'fetch-public');
  const p1 = await send(alice, { type: 'stream', to: 'fetch-public', topic: 'lunch', content: 'pizza today' });
  const p2 = await send(alice, { type: 'stream', to: 'fetch-public', topic: 'Lunch', content: 'see https://example.com/menu' });
  const p3 = await send(alice, { type: 'stream', to: 'fetch-public', topic: 'other', content: 'look https://example.com/cat.png' });
  const d1 = await send(alice, { type: 'direct', to: [bob.id], content: 'hi bob' });
  const d2 = await send(alice, { type: 'direct', to: [bob.id, carol.id], content: 'hi both' });
  const d3 = await send(bob, { type: 'direct', to: [carol.id], content: 'just carol' });

  t.test('errors', async (t) => {
    t.test('more than 5000 messages in all is refused', async (t) => {
      const res = await as(bob).get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Too many messages requested (maximum 5000).', code: 'BAD_REQUEST' });
    });
    t.test('an anchor is required, and must be an ID or a known word', async (t) => {
      const missing = await as(bob).get('/messages', { num_before: 1, num_after: 1 });
      t.strictSame(missing.body, { result: 'error', msg: "Missing 'anchor' argument.", code: 'BAD_REQUEST' });
      const garbage = await as(bob).get('/messages', { anchor: 'latest', num_before: 1, num_after: 1 });
      t.equal(garbage.status, 400);
      t.strictSame(garbage.body, { result: 'error', msg: 'Invalid anchor', code: 'BAD_REQUEST' });
    });
    t.test('num_before and num_after are required non-negative integers', async (t) => {
      const missing = await as(bob).get('/messages', { anchor: 'newest', num_before: 1 });
      t.strictSame(missing.body, {
        result: 'error',
        msg: "Missing 'num_after' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'num_after',
      });
      const negative = await as(bob).get('/messages', { anchor: 'newest', num_before: -1, num_after: 0 });
      t.equal(negative.status, 400);
      t.equal(negative.body['code'], 'REQUEST_VARIABLE_INVALID');
      t.equal(negative.body['var_name'], 'num_before');
    });
    t.test('the anchor can be excluded only at an end of the range', async (t) => {
      const res = await as(bob).get('/messages', { anchor: p2, num_before: 1, num_after: 1, include_anchor: false });
      t.strictSame(res.body, { result: 'error', msg: 'The anchor can only be excluded at an end of the range', code: 'BAD_REQUEST' });
    });
    t.test('an unknown operator is BAD_NARROW with its description', async (t) => {
      const res = await fetch(bob, [{ operator: 'color', operand: 'red' }]);
      t.equal(res.status, 400);
      t.strictSame(res.body, badNarrow('unknown operator color'));
    });
    t.test('unknown streams and users are BAD_NARROW, by name and by ID', async (t) => {
      t.strictSame((await fetch(bob, [['stream', 'nowhere']])).body, badNarrow('unknown stream nowhere'));
      t.strictSame((await fetch(bob, [{ operator: 'stream', operand: 99999 }])).body, badNarrow('unknown stream 99999'));
      t.strictSame((await fetch(bob, [['sender', 'ghost@example.com']])).body, badNarrow('unknown user ghost@example.com'));
      t.strictSame((await fetch(bob, [{ operator: 'dm', operand: [99999] }])).body, badNarrow('unknown user 99999'));
      t.strictSame(
        (await fetch(bob, [{ operator: 'dm-including', operand: 'ghost@example.com' }])).body,
        badNarrow('unknown user ghost@example.com'),
      );
    });
    t.test('bad operands are BAD_NARROW', async (t) => {
      t.strictSame((await fetch(bob, [['is', 'shiny']])).body, badNarrow("unknown 'is' operand shiny"));
      t.strictSame((await fetch(bob, [['has', 'video']])).body, badNarrow("unknown 'has' operand video"));
      t.strictSame((await fetch(bob, [['streams', 'private']])).body, badNarrow("unknown 'streams' operand private"));
      t.strictSame((await fetch(bob, [['id', 'abc']])).body, badNarrow("invalid 'id' operand abc"));
      t.strictSame((await fetch(bob, [['search', '  ']])).body, badNarrow('empty search'));
      t.strictSame((await fetch(bob, [{ operator: 'topic', operand: 5 }])).body, badNarrow("'topic' operand is not a string"));
      t.strictSame(
        (await fetch(bob, [{ operator: 'stream', operand: 'fetch-public', negated: 'yes' }])).body,
        badNarrow('negated is not a boolean'),
      );
      t.strictSame((await fetch(bob, [['stream']] as unknown as Narrow)).body, badNarrow('a legacy term has two elements'));
      t.strictSame((await fetch(bob, ['stream'] as unknown as Narrow)).body, badNarrow('a term must be an object or a pair'));
    });
    t.test('with: a message the user cannot read is BAD_NARROW', async (t) => {
      t.strictSame((await fetch(dave, [{ operator: 'with', operand: d3 }])).body, badNarrow(`invalid 'with' operand ${d3}`));
    });
    t.test('a narrow that is not JSON is refused', async (t) => {
      const res = await as(bob).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[stream' });
      t.strictSame(res.body, { result: 'error', msg: 'Argument "narrow" is not valid JSON.', code: 'BAD_REQUEST' });
    });
  });

  t.test('narrow operators', async (t) => {
    t.test('a stream narrow reads the full history, in both term forms, by name or ID', async (t) => {
      const objects = await fetch(bob, [{ operator: 'stream', operand: 'fetch-public' }]);
      t.equal(objects.status, 200);
      t.strictSame(ids(objects), [notice, p1, p2, p3]);
      t.strictSame(ids(await fetch(bob, [['stream', 'FETCH-PUBLIC']])), [notice, p1, p2, p3], 'names are case-insensitive');
      t.strictSame(ids(await fetch(bob, [{ operator: 'stream', operand: streamId }])), [notice, p1, p2, p3]);
    });
    t.test('a topic narrow is case-insensitive, and negated leaves the other topics', async (t) => {
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['topic', 'LUNCH'],
          ]),
        ),
        [p1, p2],
      );
      t.strictSame(ids(await fetch(bob, [['stream', 'fetch-public'], { operator: 'topic', operand: 'lunch', negated: true }])), [
        notice,
        p3,
      ]);
    });
    t.test('sender by email or ID, and negated', async (t) => {
      t.strictSame(ids(await fetch(bob, [['sender', alice.email]])), [d1, d2]);
      t.strictSame(ids(await fetch(bob, [['stream', 'fetch-public'], { operator: 'sender', operand: alice.id }])), [p1, p2, p3]);
      t.strictSame(ids(await fetch(carol, [{ operator: 'sender', operand: alice.email, negated: true }])), [d3]);
    });
    t.test('dm is the exact conversation, by IDs or comma-separated emails; pm-with is its alias', async (t) => {
      t.strictSame(ids(await fetch(bob, [{ operator: 'dm', operand: [alice.id] }])), [d1]);
      t.strictSame(ids(await fetch(bob, [['pm-with', alice.email]])), [d1]);
      t.strictSame(ids(await fetch(bob, [['dm', `${alice.email},${carol.email}`]])), [d2]);
      t.strictSame(ids(await fetch(bob, [{ operator: 'dm', operand: [dave.id] }])), [], 'a conversation that never happened is empty');
    });
    t.test('dm-including and group-pm-with', async (t) => {
      t.strictSame(ids(await fetch(bob, [{ operator: 'dm-including', operand: alice.id }])), [d1, d2]);
      t.strictSame(ids(await fetch(bob, [['dm-including', carol.email]])), [d2, d3]);
      t.strictSame(ids(await fetch(bob, [['group-pm-with', alice.email]])), [d2]);
      t.strictSame(ids(await fetch(bob, [{ operator: 'dm-including', operand: alice.id, negated: true }])), [d3]);
    });
    t.test('is:dm and its alias is:private; negated is:dm leaves stream messages', async (t) => {
      t.strictSame(ids(await fetch(carol, [['is', 'dm']])), [d2, d3]);
      t.strictSame(ids(await fetch(carol, [['is', 'private']])), [d2, d3]);
      t.strictSame(ids(await fetch(alice, [['stream', 'fetch-public'], { operator: 'is', operand: 'dm', negated: true }])), [
        notice,
        p1,
        p2,
        p3,
      ]);
    });
    t.test('is:unread, is:mentioned, is:alerted, is:followed', async (t) => {
      const me = await as(carol).get('/users/me');
      const mention = await send(alice, { type: 'direct', to: [carol.id], content: `hey @**${String(me.body['full_name'])}**` });
      t.strictSame(ids(await fetch(carol, [['is', 'mentioned']])), [mention]);
      t.strictSame(ids(await fetch(carol, [['is', 'unread']])), [d2, d3, mention], 'messages sent through the API start unread');
      t.strictSame(ids(await fetch(carol, [['is', 'alerted']])), []);
      t.strictSame(ids(await fetch(carol, [['is', 'followed']])), [], 'no topic is followed yet');
      t.strictSame(ids(await fetch(carol, [{ operator: 'is', operand: 'mentioned', negated: true }])), [d2, d3]);
    });
    t.test('is:resolved matches topics marked resolved', async (t) => {
      const resolved = await send(alice, { type: 'stream', to: 'fetch-public', topic: '✔ done', content: 'fixed' });
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['is', 'resolved'],
          ]),
        ),
        [resolved],
      );
      t.strictSame(ids(await fetch(bob, [['stream', 'fetch-public'], { operator: 'is', operand: 'resolved', negated: true }])), [
        notice,
        p1,
        p2,
        p3,
      ]);
    });
    t.test('has:link, has:image and has:attachment read the rendered content', async (t) => {
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['has', 'link'],
          ]),
        ),
        [p2, p3],
      );
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['has', 'image'],
          ]),
        ),
        [p3],
      );
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['has', 'attachment'],
          ]),
        ),
        [],
      );
      t.strictSame(ids(await fetch(bob, [['stream', 'fetch-public'], { operator: 'has', operand: 'link', negated: true }])).slice(0, 2), [
        notice,
        p1,
      ]);
    });
    t.test('id picks one message; near moves the anchor; with opens the conversation', async (t) => {
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['id', String(p2)],
          ]),
        ),
        [p2],
      );
      t.strictSame(ids(await fetch(bob, [{ operator: 'id', operand: d3 }])), [d3]);
      t.strictSame(ids(await fetch(alice, [{ operator: 'id', operand: d3 }])), [], "someone else's direct message stays invisible");
      const near = await as(bob).get('/messages', {
        anchor: 'newest',
        num_before: 1,
        num_after: 1,
        narrow: [
          ['stream', 'fetch-public'],
          ['near', String(p2)],
        ],
      });
      t.equal(near.body['anchor'], p2);
      t.strictSame(ids(near), [p1, p2, p3]);
      t.strictSame(ids(await fetch(bob, [{ operator: 'with', operand: p1 }])), [p1, p2], 'a stream message: its stream and topic');
      t.strictSame(ids(await fetch(bob, [{ operator: 'with', operand: d2 }])), [d2], 'a direct message: its conversation');
    });
    t.test('streams:public reads every public stream; negated stream leaves it out', async (t) => {
      const publicIds = ids(await fetch(bob, [['streams', 'public']]));
      t.ok([p1, p2, p3].every((id) => publicIds.includes(id)));
      t.notOk(publicIds.includes(d1));
      const rest = ids(await fetch(alice, [{ operator: 'stream', operand: 'fetch-public', negated: true }]));
      t.ok(rest.includes(d1) && rest.includes(d2), 'direct messages are not in the stream');
      t.notOk(rest.includes(p1));
    });
    t.test('in:home leaves out muted streams; in:all filters nothing', async (t) => {
      const narrowed = (operand: string) => fetch(alice, [{ operator: 'sender', operand: alice.email }, ['in', operand]]);
      const everything = ids(await narrowed('all'));
      t.ok([p1, p2, p3, d1].every((id) => everything.includes(id)));
      const mute = async (muted: boolean) => {
        const res = await as(alice).post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: streamId, property: 'is_muted', value: muted }],
        });
        t.equal(res.status, 200, res.text);
      };
      await mute(true);
      const home = ids(await narrowed('home'));
      await mute(false);
      t.notOk(home.includes(p1), 'the muted stream is left out');
      t.ok(home.includes(d1), 'direct messages stay');
      t.strictSame((await fetch(alice, [['in', 'nowhere']])).body, badNarrow("unknown 'in' operand nowhere"));
    });
    t.test('combined terms all apply', async (t) => {
      t.strictSame(
        ids(
          await fetch(bob, [
            ['stream', 'fetch-public'],
            ['topic', 'lunch'],
            ['sender', alice.email],
            ['has', 'link'],
          ]),
        ),
        [p2],
      );
    });
    t.test('no narrow is every message the user received', async (t) => {
      const all = ids(await fetch(carol, []));
      t.ok([d2, d3].every((id) => all.includes(id)));
      t.notOk(all.includes(p1), 'stream history is not included without a stream term');
      t.notOk(all.includes(d1));
    });
  });

  t.test('anchors and found_* fields', async (t) => {
    const narrow: Narrow = [
      ['stream', 'fetch-public'],
      ['topic', 'lunch'],
    ];
    const range = (extra: Record<string, string | number | boolean>) =>
      as(bob).get('/messages', { num_before: 0, num_after: 0, narrow, ...extra });
    t.test('newest resolves to 10^16, found_newest', async (t) => {
      const res = await range({ anchor: 'newest', num_before: 5 });
      t.strictSame(ids(res), [p1, p2]);
      hasFields(t, res.body, { anchor: NEWEST, found_anchor: false, found_oldest: true, found_newest: true, history_limited: false });
    });
    t.test('a JSON-encoded "newest" works the same', async (t) => {
      const res = await range({ anchor: '"newest"', num_before: 1 });
      t.strictSame(ids(res), [p2]);
      hasFields(t, res.body, { anchor: NEWEST, found_oldest: false, found_newest: true });
    });
    t.test('oldest resolves to 0, found_oldest', async (t) => {
      const res = await range({ anchor: 'oldest', num_after: 1 });
      t.strictSame(ids(res), [p1]);
      hasFields(t, res.body, { anchor: 0, found_anchor: false, found_oldest: true, found_newest: false });
    });
    t.test('an ID anchor includes the anchor and reports what lies beyond', async (t) => {
      const both = await range({ anchor: p2, num_before: 1, num_after: 1 });
      t.strictSame(ids(both), [p1, p2]);
      hasFields(t, both.body, { anchor: p2, found_anchor: true, found_oldest: true, found_newest: true });
      const only = await range({ anchor: p1 });
      t.strictSame(ids(only), [p1]);
      hasFields(t, only.body, { found_anchor: true, found_oldest: true, found_newest: false });
    });
    t.test('include_anchor false leaves the anchor out', async (t) => {
      const res = await range({ anchor: p2, num_before: 5, include_anchor: false });
      t.strictSame(ids(res), [p1]);
      t.equal(res.body['found_anchor'], false);
    });
    t.test('an ID not in the narrow still anchors the range', async (t) => {
      const res = await range({ anchor: p3, num_before: 5 });
      t.strictSame(ids(res), [p1, p2]);
      hasFields(t, res.body, { anchor: p3, found_anchor: false, found_oldest: true });
    });
    t.test('negative anchors clamp to 0 and huge ones to 10^16', async (t) => {
      t.equal((await range({ anchor: '-5', num_after: 1 })).body['anchor'], 0);
      t.equal((await range({ anchor: '99999999999999999999', num_before: 1 })).body['anchor'], NEWEST);
    });
    t.test('first_unread is the oldest unread match, else as newest', async (t) => {
      const res = await as(carol).get('/messages', { anchor: 'first_unread', num_before: 0, num_after: 5, narrow: [['is', 'dm']] });
      t.equal(res.body['anchor'], d2);
      t.equal(ids(res)[0], d2);
      t.equal(res.body['found_anchor'], true);
      const history = await range({ anchor: 'first_unread', num_before: 5 });
      t.equal(history.body['anchor'], NEWEST, 'stream history counts as read');
      t.strictSame(ids(history), [p1, p2]);
      const legacy = await as(carol).get('/messages', {
        use_first_unread_anchor: true,
        num_before: 0,
        num_after: 1,
        narrow: [['is', 'dm']],
      });
      t.equal(legacy.body['anchor'], d2, 'use_first_unread_anchor stands for anchor=first_unread');
    });
  });

  t.test('message objects', async (t) => {
    t.test("carry the viewer's flags; history reads as read and historical", async (t) => {
      const history = (
        await fetch(bob, [
          ['stream', 'fetch-public'],
          ['id', String(p1)],
        ])
      ).body['messages'] as Message[];
      t.strictSame(history[0]?.['flags'], ['read', 'historical']);
      const own = (
        await fetch(alice, [
          ['stream', 'fetch-public'],
          ['id', String(p1)],
        ])
      ).body['messages'] as Message[];
      t.strictSame(own[0]?.['flags'], [], 'a message sent through the API is unread for its sender');
    });
    t.test('apply_markdown false gives the source; client_extavatar false gives avatar URLs', async (t) => {
      const html = ((await fetch(bob, [['id', String(d1)]])).body['messages'] as Message[])[0] as Message;
      hasFields(t, html, { content: '<p>hi bob</p>', content_type: 'text/html', avatar_url: null, subject: '', type: 'private' });
      const raw = (
        (await fetch(bob, [['id', String(d1)]], { apply_markdown: false, client_extavatar: false })).body['messages'] as Message[]
      )[0] as Message;
      hasFields(t, raw, { content: 'hi bob', content_type: 'text/x-markdown', avatar_url: /^https:\/\// });
      t.notOk('match_content' in raw, 'search fields only with a search term');
    });
  });

  t.test('access', async (t) => {
    t.test('a private stream with shared history: subscribers read all of it, others nothing', async (t) => {
      const { noticeId: sharedNotice } = await createStream(as(alice), 'fetch-shared', {
        invite_only: true,
        history_public_to_subscribers: true,
      });
      const before = await send(alice, { type: 'stream', to: 'fetch-shared', topic: 't', content: 'before bob' });
      t.strictSame(ids(await fetch(bob, [['stream', 'fetch-shared']])), [], 'not subscribed: nothing');
      await as(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'fetch-shared' }], principals: [bob.id] });
      const after = await send(alice, { type: 'stream', to: 'fetch-shared', topic: 't', content: 'after bob' });
      const res = await fetch(bob, [['stream', 'fetch-shared']]);
      t.strictSame(ids(res), [sharedNotice, before, after]);
      t.strictSame(
        (res.body['messages'] as Message[]).map((m) => m['flags']),
        [['read', 'historical'], ['read', 'historical'], []],
      );
      t.strictSame(
        ids(await fetch(bob, [['streams', 'public']])).filter((id) => [sharedNotice, before, after].includes(id)),
        [],
        'not a public stream',
      );
    });
    t.test('a private stream with protected history: only what the user received', async (t) => {
      await as(alice).post('/users/me/subscriptions', {
        subscriptions: [{ name: 'fetch-protected' }],
        invite_only: true,
        history_public_to_subscribers: false,
      });
      await send(alice, { type: 'stream', to: 'fetch-protected', topic: 't', content: 'before bob' });
      await as(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'fetch-protected' }], principals: [bob.id] });
      const after = await send(alice, { type: 'stream', to: 'fetch-protected', topic: 't', content: 'after bob' });
      t.strictSame(ids(await fetch(bob, [['stream', 'fetch-protected']])), [after], 'not the new-stream notice either');
    });
    t.test('a guest reads public history only of streams they are subscribed to', async (t) => {
      t.strictSame(ids(await fetch(guest, [['stream', 'fetch-public']])), []);
      t.strictSame(
        ids(await fetch(guest, [['streams', 'public']])).filter((id) => id === p1),
        [],
      );
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'fetch-public' }], principals: [guest.id] });
      t.strictSame(
        ids(
          await fetch(guest, [
            ['stream', 'fetch-public'],
            ['topic', 'lunch'],
          ]),
        ),
        [p1, p2],
      );
    });
    t.test("someone else's direct messages are never visible", async (t) => {
      t.notOk(ids(await fetch(alice, [])).includes(d3));
      t.notOk(ids(await fetch(alice, [['dm-including', carol.email]])).includes(d3));
      t.strictSame(
        ids(await fetch(dave, [['is', 'dm']])).filter((id) => [d1, d2, d3].includes(id)),
        [],
      );
    });
  });
});
