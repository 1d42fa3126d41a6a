import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { ALL_USER_MESSAGES } from '../../workers/queries/user-message-rows';

const BAD = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

t.test('POST /messages/flags', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');

  const send = async (client: ApiClient, params: Record<string, string | number | object>) =>
    Number((await client.post('/messages', params)).body['id']);
  const flagsOf = async (client: ApiClient, id: number) => (await fetchMessage(client, id))['flags'];
  const storedRow = (userId: number, messageId: number) => {
    const db = new Database(path.join(server.dataDir, 'realms', 'default.sqlite3'), { readonly: true });
    const row = db.prepare(`SELECT flags FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`).get(userId, messageId);
    db.close();
    return row as { flags: number } | undefined;
  };

  const toAlice = await send(api, { type: 'direct', to: [alice.id], content: 'hello alice' });

  t.test('errors', async (t) => {
    t.test('an unknown flag is Invalid flag', async (t) => {
      const res = await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'add', flag: 'shiny' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD("Invalid flag: 'shiny'"));
    });
    t.test('flags the server sets, and legacy ones, are not editable', async (t) => {
      for (const flag of ['mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical', 'summarize_in_home', 'force_collapse']) {
        const res = await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'add', flag });
        t.equal(res.status, 400);
        t.strictSame(res.body, BAD(`Flag not editable: '${flag}'`));
      }
    });
    t.test('an unknown operation is refused with its name', async (t) => {
      const res = await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'toggle', flag: 'starred' });
      t.strictSame(res.body, BAD("Invalid message flag operation: 'toggle'"));
    });
    t.test('messages missing or not accessible are Invalid message(s), and nothing changes', async (t) => {
      const unknown = await api.as(alice).post('/messages/flags', { messages: [toAlice, 999999], op: 'add', flag: 'starred' });
      t.equal(unknown.status, 400);
      t.strictSame(unknown.body, BAD('Invalid message(s)'));
      t.strictSame(await flagsOf(api.as(alice), toAlice), [], 'the whole request rolled back');
      const secret = await api.as(bob).post('/messages/flags', { messages: [toAlice], op: 'add', flag: 'starred' });
      t.strictSame(secret.body, BAD('Invalid message(s)'));
    });
    t.test('parameters are required and messages is a list of integers', async (t) => {
      const missing = await api.as(alice).post('/messages/flags', { op: 'add', flag: 'read' });
      t.strictSame(missing.body, {
        result: 'error',
        msg: "Missing 'messages' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'messages',
      });
      const noFlag = await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'add' });
      t.strictSame(noFlag.body, { result: 'error', msg: "Missing 'flag' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'flag' });
      const notList = await api.as(alice).post('/messages/flags', { messages: '"x"', op: 'add', flag: 'read' });
      t.strictSame(notList.body, {
        result: 'error',
        msg: 'messages is not a list',
        code: 'REQUEST_VARIABLE_INVALID',
        var_name: 'messages',
      });
    });
  });

  t.test('read, starred and collapsed are added and removed on own messages; the response echoes the list', async (t) => {
    const second = await send(api, { type: 'direct', to: [alice.id], content: 'second' });
    const add = await api.as(alice).post('/messages/flags', { messages: [toAlice, second], op: 'add', flag: 'read' });
    t.equal(add.status, 200);
    t.strictSame(add.body, { result: 'success', msg: '', messages: [toAlice, second] });
    t.strictSame(await flagsOf(api.as(alice), toAlice), ['read']);
    t.strictSame(await flagsOf(api.as(alice), second), ['read']);
    await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'add', flag: 'starred' });
    await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'add', flag: 'collapsed' });
    t.strictSame(await flagsOf(api.as(alice), toAlice), ['read', 'starred', 'collapsed']);
    const again = await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'add', flag: 'starred' });
    t.equal(again.status, 200, 'setting a flag already set is fine');
    const remove = await api.as(alice).post('/messages/flags', { messages: [toAlice], op: 'remove', flag: 'read' });
    t.strictSame(remove.body, { result: 'success', msg: '', messages: [toAlice] });
    t.strictSame(await flagsOf(api.as(alice), toAlice), ['starred', 'collapsed']);
    t.strictSame(await flagsOf(api, toAlice), [], "other users' flags are untouched");
  });

  t.test('starring public stream history creates a historical row; reading it needs none', async (t) => {
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'flag-history' }] });
    const old = await send(api, { type: 'stream', to: 'flag-history', topic: 't', content: 'old news' });
    const read = await api.as(bob).post('/messages/flags', { messages: [old], op: 'add', flag: 'read' });
    t.equal(read.status, 200);
    t.equal(storedRow(bob.id, old), undefined, 'history already counts as read');
    const star = await api.as(bob).post('/messages/flags', { messages: [old], op: 'add', flag: 'starred' });
    t.equal(star.status, 200);
    t.strictSame(storedRow(bob.id, old), { flags: 1 | 2 | 64 }, 'read, starred, historical');
    t.strictSame(await flagsOf(api.as(bob), old), ['read', 'starred', 'historical']);
    await api.as(bob).post('/messages/flags', { messages: [old], op: 'remove', flag: 'starred' });
    t.strictSame(await flagsOf(api.as(bob), old), ['read', 'historical']);
  });

  t.test('marking unread skips messages of streams the user is not subscribed to', async (t) => {
    const old = await send(api, { type: 'stream', to: 'flag-history', topic: 't', content: 'still old' });
    const res = await api.as(alice).post('/messages/flags', { messages: [old], op: 'remove', flag: 'read' });
    t.equal(res.status, 200);
    t.strictSame(res.body['messages'], [old]);
    t.strictSame(await flagsOf(api.as(alice), old), ['read', 'historical']);
    t.equal(storedRow(alice.id, old), undefined);
  });

  t.test('a subscriber may mark stream history unread, which creates an unread historical row', async (t) => {
    const early = await send(api, { type: 'stream', to: 'flag-history', topic: 't', content: 'before bob' });
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'flag-history' }], principals: [bob.id] });
    const res = await api.as(bob).post('/messages/flags', { messages: [early], op: 'remove', flag: 'read' });
    t.equal(res.status, 200);
    t.strictSame(storedRow(bob.id, early), { flags: 64 });
    t.strictSame(await flagsOf(api.as(bob), early), ['historical']);
  });
});
