import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, updateRealm } from '../helpers/fixtures';
import { updateSettings } from '../helpers/people';
import { startServer } from '../helpers/server';

const BAD = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

t.test('GET /messages/{message_id}/read_receipts', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const carol = await createMember(api, 'Carol');
  const receipts = (client: ApiClient, id: number) => client.get(`/messages/${id}/read_receipts`);
  const markRead = (client: ApiClient, id: number) => client.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });

  const sent = await api.post('/messages', { type: 'direct', to: [alice.id, bob.id, carol.id], content: 'read me' });
  const id = Number(sent.body['id']);

  t.test('errors', async (t) => {
    t.test('an unknown or inaccessible message is Invalid message(s)', async (t) => {
      const unknown = await receipts(api, 999999);
      t.equal(unknown.status, 400);
      t.strictSame(unknown.body, BAD('Invalid message(s)'));
      const secret = Number((await api.post('/messages', { type: 'direct', to: [bob.id], content: 'private' })).body['id']);
      t.strictSame((await receipts(api.as(alice), secret)).body, BAD('Invalid message(s)'));
    });
    t.test('read receipts disabled in the organization is an error', async (t) => {
      await updateRealm(api, { enable_read_receipts: false });
      const res = await receipts(api, id);
      await updateRealm(api, { enable_read_receipts: true });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Read receipts are disabled in this organization.'));
    });
  });

  t.test('nobody has read a fresh message; the sender never appears', async (t) => {
    await markRead(api, id);
    const res = await receipts(api, id);
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '', user_ids: [] });
  });

  t.test('readers appear, the requester included, except those who turned receipts off', async (t) => {
    await markRead(api.as(alice), id);
    await markRead(api.as(bob), id);
    await markRead(api.as(carol), id);
    t.strictSame((await receipts(api.as(alice), id)).body['user_ids'], [alice.id, bob.id, carol.id]);
    await updateSettings(api.as(carol), { send_read_receipts: false });
    t.strictSame((await receipts(api.as(bob), id)).body['user_ids'], [alice.id, bob.id]);
  });

  t.test('marking a message unread takes the reader out', async (t) => {
    await api.as(alice).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    t.strictSame((await receipts(api, id)).body['user_ids'], [bob.id]);
  });
});
