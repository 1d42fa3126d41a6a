import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { RealmFile, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// POST /messages checks the stream or recipients, renders, then writes: the write must check them
// again, as they are then. The renders are held by a test hook (TEST_HOOKS=1) while another request
// changes them.
t.test('POST /messages whose stream or recipient changes while the message renders', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const file = new RealmFile(server);
  t.teardown(() => file.close());
  const aliceCreds = await createMember(api, 'Alice');
  const alice = api.as(aliceCreds);
  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'attic' }, { name: 'porch' }], principals: [aliceCreds.id] });
  const renderHold = async (op: 'hold' | 'wait_parked' | 'release'): Promise<unknown> =>
    (await api.post('/__test__/render_hold', { op })).body;
  /** Alice's send (to a stream, or directly to people), held in its render while `change` is made; what each step answered. */
  const sendWhile = async (to: number | number[], change: () => Promise<ApiResponse>) => {
    const held = await renderHold('hold');
    const target = Array.isArray(to) ? { type: 'direct', to } : { type: 'stream', to, topic: 'meanwhile' };
    const sending = alice.post('/messages', { ...target, content: 'sent during the change' });
    const parked = await renderHold('wait_parked');
    const changed = (await change()).status;
    const released = await renderHold('release');
    return { holds: [held, parked, released], changed, sent: await sending };
  };
  const holdsAnswered = [
    { result: 'success', msg: '' },
    { result: 'success', msg: '' },
    { result: 'success', msg: '' },
  ];
  // Alice's messages in the stream (archiving and creating streams post notices of their own)
  const aliceSentTo = (streamId: number): number =>
    file.value('SELECT count(*) FROM messages WHERE stream_id = ? AND sender_id = ?', streamId, aliceCreds.id) as number;

  t.test('archived meanwhile: the send fails as for an archived stream, and nothing is stored', async (t) => {
    const atticId = await streamIdOf(api, 'attic');
    const { holds, changed, sent: res } = await sendWhile(atticId, () => api.call('DELETE', `/streams/${atticId}`));
    t.strictSame(holds, holdsAnswered);
    t.equal(changed, 200, 'the change was made while the message rendered');
    t.equal(res.status, 400);
    t.strictSame(res.body, {
      result: 'error',
      msg: `Stream with ID '${atticId}' does not exist`,
      code: 'STREAM_DOES_NOT_EXIST',
      stream_id: atticId,
    });
    t.equal(aliceSentTo(atticId), 0);
  });

  t.test('restricted to administrators meanwhile: a member is refused, and nothing is stored', async (t) => {
    const porchId = await streamIdOf(api, 'porch');
    const {
      holds,
      changed,
      sent: res,
    } = await sendWhile(porchId, () => api.call('PATCH', `/streams/${porchId}`, { stream_post_policy: 2 }));
    t.strictSame(holds, holdsAnswered);
    t.equal(changed, 200, 'the change was made while the message rendered');
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: 'Only organization administrators can send to this stream.', code: 'BAD_REQUEST' });
    t.equal(aliceSentTo(porchId), 0);
  });

  t.test('unchanged meanwhile: the held message is sent', async (t) => {
    const generalId = await streamIdOf(api, 'general');
    const {
      holds,
      changed,
      sent: res,
    } = await sendWhile(generalId, () => api.post('/users/me/subscriptions', { subscriptions: [{ name: 'shed' }] }));
    t.strictSame(holds, holdsAnswered);
    t.equal(changed, 200, 'the change was made while the message rendered');
    t.equal(res.status, 200);
    t.equal(aliceSentTo(generalId), 1);
  });

  t.test('a direct message whose recipient is deactivated meanwhile is refused, and nothing is stored', async (t) => {
    const bobCreds = await createMember(api, 'Bob');
    const { holds, changed, sent: res } = await sendWhile([bobCreds.id], () => api.call('DELETE', `/users/${bobCreds.id}`));
    t.strictSame(holds, holdsAnswered);
    t.equal(changed, 200, 'the change was made while the message rendered');
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: `'${bobCreds.email}' is no longer using this server.`, code: 'BAD_REQUEST' });
    t.equal(file.value('SELECT count(*) FROM messages WHERE sender_id = ? AND stream_id IS NULL', aliceCreds.id), 0);
  });
});
