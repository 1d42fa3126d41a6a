import t from 'tap';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';
import { HAS_OPERANDS, IN_OPERANDS, IS_ALIASES, IS_OPERANDS, OPERATOR_ALIASES, STREAMS_OPERANDS } from '../../workers/lib/narrow';

type Term = Record<string, unknown> | [string, string];

// api-notes §b: `newest` and an unfound first_unread resolve to this ID.
const NEWEST = 10_000_000_000_000_000;
// Requests in flight at once: enough to finish in seconds, few enough for a shared machine.
const IN_FLIGHT = 6;

/** Runs `calls` with at most IN_FLIGHT at once, answers in order. */
async function inBatches<T>(calls: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < calls.length; i += IN_FLIGHT) {
    results.push(...(await Promise.all(calls.slice(i, i + IN_FLIGHT).map((call) => call()))));
  }
  return results;
}

function operatorOf(term: Term): string {
  return Array.isArray(term) ? term[0] : String(term['operator']);
}

/**
 * Every narrow operator the parser accepts (workers/lib/narrow.ts), alone and in pairs, against
 * every anchor, on conversations with messages and without: no cell may answer 5xx. The web
 * page's first direct message to someone asks first_unread of an empty `dm` narrow; that was a
 * 500 ("no query solution" from a forced index).
 */
t.test('narrows × anchors: never a server error', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const me = await createMember(api, 'Viewer');
  const bob = await createMember(api, 'Bob');
  const carol = await createMember(api, 'Carol'); // never messaged
  const dave = await createMember(api, 'Dave');
  const send = async (who: { email: string; key: string }, params: Record<string, string | number | object>): Promise<number> => {
    const res = await api.as(who).post('/messages', params);
    if (res.status !== 200) throw new Error(res.text);
    return res.body['id'] as number;
  };
  const check = (res: ApiResponse): void => {
    if (res.status !== 200) throw new Error(res.text);
  };

  check(await api.as(me).post('/users/me/alert_words', { alert_words: ['deploy'] }));
  const { streamId } = await createStream(api.as(me), 'matrix');
  // Bob's own stream: its messages are history for the viewer, who is not subscribed.
  await createStream(api.as(bob), 'quiet');
  const streamMessage = await send(me, { type: 'stream', to: 'matrix', topic: 'lunch', content: 'pizza at https://example.com/a.png' });
  await send(bob, { type: 'stream', to: 'matrix', topic: 'lunch', content: `@**${me.fullName}** pizza?` });
  await send(bob, { type: 'stream', to: 'matrix', topic: '✔ release', content: 'deploy done' });
  await send(bob, { type: 'stream', to: 'quiet', topic: 'notes', content: 'quiet pizza' });
  const directMessage = await send(bob, { type: 'direct', to: [me.id], content: 'hello there' });
  await send(me, { type: 'direct', to: [bob.id], content: 'hello back' });
  await send(bob, { type: 'direct', to: [me.id, dave.id], content: 'hello group' });
  check(await api.as(me).post('/messages/flags', { messages: [directMessage], op: 'add', flag: 'starred' }));

  // What the page asks when a conversation is opened, and what the public API answers for a
  // narrow with nothing unread: first_unread resolves as `newest` (api-notes §c first_unread).
  const emptyRange = {
    result: 'success',
    msg: '',
    messages: [],
    anchor: NEWEST,
    found_anchor: false,
    found_oldest: true,
    found_newest: true,
    history_limited: false,
  };
  const page = (narrow: Term[], anchor: string | number) => api.as(me).get('/messages', { anchor, num_before: 50, num_after: 50, narrow });

  t.test('first_unread of a direct conversation never used: empty, anchored at newest', async (t) => {
    for (const operand of [[carol.id], carol.email, [me.id], [carol.id, dave.id]]) {
      const res = await page([{ operator: 'dm', operand }], 'first_unread');
      t.equal(res.status, 200, `dm ${JSON.stringify(operand)}`);
      t.strictSame(res.body, emptyRange, `dm ${JSON.stringify(operand)}`);
    }
  });
  t.test('is:unread in a conversation never used, anchored at newest', async (t) => {
    const res = await page(
      [
        { operator: 'dm', operand: [carol.id] },
        { operator: 'is', operand: 'unread' },
      ],
      'newest',
    );
    t.strictSame(res.body, emptyRange);
  });
  t.test('a search without a word, and is:followed, match nothing whatever the anchor', async (t) => {
    for (const narrow of [[{ operator: 'search', operand: '!!!' }], [{ operator: 'is', operand: 'followed' }]]) {
      t.strictSame((await page(narrow, 'first_unread')).body, emptyRange, JSON.stringify(narrow));
      t.strictSame((await page(narrow, 'oldest')).body, { ...emptyRange, anchor: 0 }, JSON.stringify(narrow));
    }
  });
  t.test('first_unread of a conversation with unread messages anchors at the oldest unread', async (t) => {
    const res = await page([{ operator: 'dm', operand: [bob.id] }], 'first_unread');
    const ids = (res.body['messages'] as Record<string, unknown>[]).map((message) => message['id']);
    t.strictSame(
      { ...res.body, messages: ids },
      {
        result: 'success',
        msg: '',
        messages: [directMessage, directMessage + 1],
        anchor: directMessage,
        found_anchor: true,
        found_oldest: true,
        found_newest: true,
        history_limited: false,
      },
    );
  });
  t.test('matches_narrow and flags/narrow on a conversation never used', async (t) => {
    const narrow = [{ operator: 'dm', operand: [carol.id] }];
    const matches = await api.as(me).get('/messages/matches_narrow', { msg_ids: [directMessage, streamMessage], narrow });
    t.strictSame(matches.body, { result: 'success', msg: '', messages: {} });
    const flags = await api
      .as(me)
      .post('/messages/flags/narrow', { anchor: 'first_unread', num_before: 10, num_after: 10, narrow, op: 'add', flag: 'read' });
    t.strictSame(flags.body, {
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

  // One or more terms per operator spelling the parser accepts, on messages and on nothing.
  const single: Term[] = [
    { operator: 'stream', operand: 'matrix' },
    ['stream', 'quiet'],
    { operator: 'channel', operand: streamId },
    ...STREAMS_OPERANDS.map((operand) => ({ operator: 'streams', operand })),
    { operator: 'channels', operand: 'public' },
    { operator: 'topic', operand: 'lunch' },
    { operator: 'subject', operand: 'never used' },
    { operator: 'sender', operand: bob.email },
    { operator: 'sender', operand: me.id },
    { operator: 'dm', operand: [bob.id] },
    { operator: 'dm', operand: [bob.id, dave.id] },
    { operator: 'pm-with', operand: carol.email },
    { operator: 'pm_with', operand: [me.id] },
    { operator: 'dm-including', operand: bob.id },
    { operator: 'group-pm-with', operand: bob.email },
    { operator: 'group_pm_with', operand: carol.id },
    ...[...IS_OPERANDS, ...Object.keys(IS_ALIASES)].map((operand) => ({ operator: 'is', operand })),
    ...HAS_OPERANDS.map((operand) => ({ operator: 'has', operand })),
    ...IN_OPERANDS.map((operand) => ({ operator: 'in', operand })),
    { operator: 'id', operand: directMessage },
    { operator: 'id', operand: 999_999 },
    { operator: 'near', operand: directMessage },
    { operator: 'with', operand: streamMessage },
    { operator: 'with', operand: directMessage },
    { operator: 'search', operand: 'pizza' },
    { operator: 'search', operand: 'nothingmatchesthis' },
    { operator: 'search', operand: '!!!' },
    { operator: 'dm', operand: [carol.id], negated: true },
    { operator: 'is', operand: 'unread', negated: true },
    { operator: 'is', operand: 'followed', negated: true },
    { operator: 'search', operand: 'pizza', negated: true },
    { operator: 'stream', operand: 'matrix', negated: true },
  ];
  const narrows: Term[][] = [[], ...single.map((term) => [term])];
  for (let i = 0; i < single.length; i++) {
    for (let j = i + 1; j < single.length; j++) narrows.push([single[i] as Term, single[j] as Term]);
  }
  // Numeric anchors: a message in most of these narrows, and 0 (as `oldest`); `date` is not an
  // anchor this server knows (400 Invalid anchor, never a crash).
  const anchors: (string | number)[] = ['newest', 'oldest', 'first_unread', directMessage, 0, 'date'];
  const flagAnchors: (string | number)[] = ['first_unread', 'newest', directMessage];

  t.test('the terms cover every operator spelling the parser accepts', async (t) => {
    t.strictSame([...new Set(single.map(operatorOf))].sort(), Object.keys(OPERATOR_ALIASES).sort());
  });

  t.test('every cell answers a JSON envelope, never 5xx', async (t) => {
    interface Cell {
      endpoint: string;
      narrow: Term[];
      anchor: string | number | null;
      call: () => Promise<ApiResponse>;
    }
    const cells: Cell[] = [];
    for (const narrow of narrows) {
      for (const anchor of anchors) {
        cells.push({ endpoint: 'GET /messages', narrow, anchor, call: () => page(narrow, anchor) });
      }
      cells.push({
        endpoint: 'GET /messages/matches_narrow',
        narrow,
        anchor: null,
        call: () => api.as(me).get('/messages/matches_narrow', { msg_ids: [streamMessage, directMessage], narrow }),
      });
      for (const anchor of flagAnchors) {
        cells.push({
          endpoint: 'POST /messages/flags/narrow',
          narrow,
          anchor,
          // `collapsed` changes no narrow's result, so every cell sees the same messages.
          call: () =>
            api.as(me).post('/messages/flags/narrow', { anchor, num_before: 20, num_after: 20, narrow, op: 'add', flag: 'collapsed' }),
        });
      }
    }
    const answers = await inBatches(cells.map((cell) => cell.call));
    const histogram: Record<string, Record<string, number>> = {};
    const failures: string[] = [];
    answers.forEach((res, i) => {
      const cell = cells[i] as Cell;
      const counts = (histogram[cell.endpoint] ??= {});
      counts[res.status] = (counts[res.status] ?? 0) + 1;
      const envelope =
        res.status === 200 ? res.body['result'] === 'success' : res.body['result'] === 'error' && typeof res.body['msg'] === 'string';
      if (res.status >= 500 || !envelope) {
        failures.push(
          `${cell.endpoint} anchor=${String(cell.anchor)} narrow=${JSON.stringify(cell.narrow)}: ${res.status} ${res.text.slice(0, 200)}`,
        );
      }
    });
    t.comment(`${cells.length} cases (${narrows.length} narrows: none, ${single.length} single terms and their pairs)`);
    for (const [endpoint, counts] of Object.entries(histogram)) t.comment(`${endpoint}: ${JSON.stringify(counts)}`);
    t.strictSame(failures, []);
    // Most cells must succeed: a matrix of 400s would prove nothing about the queries.
    const ok = answers.filter((res) => res.status === 200).length;
    t.ok(ok > cells.length / 2, `${ok} of ${cells.length} cells answered 200`);
  });
});
