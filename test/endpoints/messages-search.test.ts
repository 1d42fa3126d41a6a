import t from 'tap';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';

type Message = Record<string, unknown>;

function ids(res: ApiResponse): number[] {
  return (res.body['messages'] as Message[]).map((m) => m['id'] as number);
}

t.test('full-text search', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  // The stream starts with the notification bot's new-stream notice.
  const { noticeId: notice } = await createStream(api.as(alice), 'kitchen');
  const send = async (topic: string, content: string): Promise<number> => {
    const res = await api.as(alice).post('/messages', { type: 'stream', to: 'kitchen', topic, content });
    if (res.status !== 200) throw new Error(res.text);
    return res.body['id'] as number;
  };
  const creme = await send('desserts', 'The Café serves crème brûlée on Fridays');
  const pizza = await send('<b>pizza</b> & co', 'We ordered [pizza](https://example.com/pizza) and pasta');
  const plain = await send('misc', 'the end of the week');
  const secret = await api.as(alice).post('/messages', { type: 'direct', to: [alice.id], content: 'pizza secret' });
  const secretId = secret.body['id'] as number;

  // bob reads the stream as history: search works there too.
  const search = (operand: string, who = bob, extra: object[] = []) =>
    api.as(who).get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'stream', operand: 'kitchen' }, { operator: 'search', operand }, ...extra],
    });

  t.test('FTS syntax and punctuation in the query never break it', async (t) => {
    const inputs = [
      '"',
      "'",
      '%',
      '_',
      '*',
      'pizza*',
      'AND OR NOT',
      'NEAR(',
      'NEAR(pizza pasta)',
      '((pizza',
      'pizza)',
      'content:pizza',
      '^pizza',
      '-pizza',
      '"unbalanced pizza',
      'a "" b',
      '\\',
      ';DROP TABLE messages;--',
    ];
    for (const input of inputs) {
      const res = await search(input);
      t.equal(res.status, 200, `${input}: ${res.text.slice(0, 200)}`);
      t.equal(res.body['result'], 'success');
    }
    t.strictSame(ids(await search('%')), [], 'no word: nothing matches');
    t.strictSame(ids(await search('NEAR(pizza pasta)')), [], 'NEAR is a word here, and no message has it');
    t.strictSame(ids(await search('pizza)')), [pizza]);
    t.strictSame(ids(await search('content:pizza')), [], '"content" is a word to find, not a column filter');
  });
  t.test('several words are all required', async (t) => {
    t.strictSame(ids(await search('pizza pasta')), [pizza]);
    t.strictSame(ids(await search('pizza brûlée')), []);
  });
  t.test('quotes make a phrase', async (t) => {
    t.strictSame(ids(await search('"crème brûlée"')), [creme]);
    t.strictSame(ids(await search('"brûlée crème"')), []);
    t.strictSame(ids(await search('brûlée crème')), [creme]);
  });
  t.test('case and accents do not matter', async (t) => {
    t.strictSame(ids(await search('CAFE')), [creme]);
    t.strictSame(ids(await search('creme brulee')), [creme]);
    t.strictSame(ids(await search('Crème')), [creme]);
  });
  t.test('stop words are dropped unless the query is only stop words', async (t) => {
    t.strictSame(ids(await search('the pizza')), [pizza]);
    t.strictSame(ids(await search('the')), [creme, plain]);
  });
  t.test('the topic is searched too', async (t) => {
    t.strictSame(ids(await search('desserts')), [creme]);
  });
  t.test('negated search leaves matches out', async (t) => {
    const res = await api.as(bob).get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [['stream', 'kitchen'], { operator: 'search', operand: 'pizza', negated: true }],
    });
    t.strictSame(ids(res), [notice, creme, plain]);
    t.notOk('match_content' in ((res.body['messages'] as Message[])[0] as Message), 'no highlighting without a positive search');
  });
  t.test('search without a stream finds only messages the user received', async (t) => {
    const res = await api.as(alice).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [['search', 'pizza']] });
    t.strictSame(ids(res), [pizza, secretId]);
    const bobs = await api.as(bob).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [['search', 'pizza']] });
    t.strictSame(ids(bobs), []);
  });
  t.test('matched words are highlighted in text, never inside tags or attributes', async (t) => {
    const [message] = (await search('pizza')).body['messages'] as Message[];
    t.equal(
      message?.['match_content'],
      '<p>We ordered <a href="https://example.com/pizza"><span class="highlight">pizza</span></a> and pasta</p>',
    );
    t.equal(message?.['match_subject'], '&lt;b&gt;<span class="highlight">pizza</span>&lt;/b&gt; &amp; co', 'the topic is HTML-escaped');
    t.equal(message?.['content'], '<p>We ordered <a href="https://example.com/pizza">pizza</a> and pasta</p>', 'content is unchanged');
    const [accented] = (await search('cafe creme')).body['messages'] as Message[];
    t.equal(
      accented?.['match_content'],
      '<p>The <span class="highlight">Café</span> serves <span class="highlight">crème</span> brûlée on Fridays</p>',
    );
    t.equal(accented?.['match_subject'], 'desserts');
  });
  t.test('the index follows edits and deletions of the stored text', async (t) => {
    const edited = await api.as(alice).call('PATCH', `/messages/${plain}`, { content: 'the end of the month' });
    t.equal(edited.status, 200, edited.text);
    t.strictSame(ids(await search('month')), [plain]);
    t.strictSame(ids(await search('week')), []);
  });

  t.test('GET /messages/matches_narrow', async (t) => {
    t.test('a bad narrow is BAD_NARROW, and msg_ids is required', async (t) => {
      const bad = await api.as(bob).get('/messages/matches_narrow', { msg_ids: [pizza], narrow: [['foo', 'x']] });
      t.equal(bad.status, 400);
      t.strictSame(bad.body, {
        result: 'error',
        msg: 'Invalid narrow operator: unknown operator foo',
        code: 'BAD_NARROW',
        desc: 'unknown operator foo',
      });
      const missing = await api.as(bob).get('/messages/matches_narrow', { narrow: [] });
      t.strictSame(missing.body, {
        result: 'error',
        msg: "Missing 'msg_ids' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'msg_ids',
      });
    });
    t.test('returns the matching messages the user can read, with search highlighting', async (t) => {
      const res = await api.as(bob).get('/messages/matches_narrow', {
        msg_ids: [creme, pizza, plain, secretId, 999999],
        narrow: [
          ['stream', 'kitchen'],
          ['search', 'pizza'],
        ],
      });
      t.equal(res.status, 200);
      t.strictSame(res.body['messages'], {
        [String(pizza)]: {
          match_content: '<p>We ordered <a href="https://example.com/pizza"><span class="highlight">pizza</span></a> and pasta</p>',
          match_subject: '&lt;b&gt;<span class="highlight">pizza</span>&lt;/b&gt; &amp; co',
        },
      });
    });
    t.test('without a search term the fields are the content and the escaped topic', async (t) => {
      const res = await api.as(alice).get('/messages/matches_narrow', { msg_ids: [creme, secretId], narrow: [['is', 'dm']] });
      t.strictSame(res.body['messages'], { [String(secretId)]: { match_content: '<p>pizza secret</p>', match_subject: '' } });
      const none = await api.as(bob).get('/messages/matches_narrow', { msg_ids: [secretId], narrow: [] });
      t.strictSame(none.body['messages'], {}, "another user's direct message never matches");
    });
  });
});
