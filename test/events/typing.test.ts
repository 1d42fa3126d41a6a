import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { deactivateUser, reactivateUser, updateSettings } from '../helpers/people';
import { startServer, type Credentials } from '../helpers/server';

type Event = Record<string, unknown>;
type Member = Credentials & { id: number };

const BAD = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

/** One registered queue, read the way clients do: GET /events after the last seen ID. */
class QueueReader {
  private lastEventId = -1;

  private constructor(
    private readonly client: ApiClient,
    readonly queueId: string,
  ) {}

  static async register(client: ApiClient, capabilities: Record<string, boolean> = {}): Promise<QueueReader> {
    const res = await client.post('/register', { event_types: ['typing'], client_capabilities: capabilities });
    if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
    return new QueueReader(client, String(res.body['queue_id']));
  }

  /** The events queued since the last read, without their IDs; `wait` parks the poll until one arrives. */
  async read(wait = false): Promise<Event[]> {
    const res = await this.client.get('/events', { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: !wait });
    if (res.status !== 200) throw new Error(`GET /events failed: ${res.text}`);
    const events = res.body['events'] as Event[];
    return events.map(({ id, ...event }) => {
      this.lastEventId = Math.max(this.lastEventId, Number(id));
      return event;
    });
  }
}

const participant = (member: Member) => ({ user_id: member.id, email: member.email });

t.test('POST /typing', async (t) => {
  // Long enough that no start expires while this test runs; the expiry has its own server below.
  const server = await startServer({ env: { TYPING_STARTED_EXPIRY_MS: '600000' } });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const [alice, bob, carol] = [await createMember(owner, 'Alice'), await createMember(owner, 'Bob'), await createMember(owner, 'Carol')];
  const as = (member: Member) => owner.as(member);

  // typing-room: owner, Alice and Bob; Carol is not subscribed. secret-room: private, the owner's.
  const subscribe = await owner.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'typing-room' }],
    principals: [server.owner.email, alice.email, bob.email],
  });
  t.equal(subscribe.status, 200, subscribe.text);
  const privateRoom = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret-room' }], invite_only: true });
  t.equal(privateRoom.status, 200, privateRoom.text);
  const roomId = await streamIdOf(owner, 'typing-room');
  const secretId = await streamIdOf(owner, 'secret-room');
  const ownerId = Number((await owner.get('/users/me')).body['user_id']);

  const typing = (member: Member, params: Record<string, string | number | object>): Promise<ApiResponse> =>
    as(member).post('/typing', params);

  t.test('errors', async (t) => {
    t.test('a missing op is REQUEST_VARIABLE_MISSING', async (t) => {
      const res = await typing(alice, { to: [bob.id] });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Missing 'op' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'op' });
    });

    t.test('an op other than start or stop is Invalid op', async (t) => {
      const res = await typing(alice, { op: 'pause', to: [bob.id] });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid op', code: 'REQUEST_VARIABLE_INVALID', var_name: 'op' });
    });

    t.test('an unknown type is Invalid type', async (t) => {
      const res = await typing(alice, { type: 'huddle', op: 'start', to: [bob.id] });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid type', code: 'REQUEST_VARIABLE_INVALID', var_name: 'type' });
    });

    t.test('a missing to is REQUEST_VARIABLE_MISSING', async (t) => {
      const res = await typing(alice, { op: 'start' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Missing 'to' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'to' });
    });

    t.test("an empty to list is Empty 'to' list, for direct and stream typing", async (t) => {
      for (const type of ['direct', 'stream']) {
        const res = await typing(alice, { type, op: 'start', to: [], topic: 'x' });
        t.equal(res.status, 400);
        t.strictSame(res.body, BAD("Empty 'to' list"), type);
      }
    });

    t.test('two stream IDs are Cannot send to multiple streams', async (t) => {
      const res = await typing(alice, { type: 'stream', op: 'start', to: [roomId, secretId], topic: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Cannot send to multiple streams'));
    });

    t.test('stream typing without a topic is Missing topic', async (t) => {
      const res = await typing(alice, { type: 'stream', op: 'start', to: [roomId] });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Missing topic'));
    });

    t.test('an unknown stream is Invalid stream ID', async (t) => {
      const res = await typing(alice, { type: 'stream', op: 'start', to: [999_999], topic: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Invalid stream ID'));
    });

    t.test('a private stream the sender is not subscribed to is Invalid stream ID', async (t) => {
      const res = await typing(alice, { type: 'stream', op: 'start', to: [secretId], topic: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Invalid stream ID'));
    });

    t.test('an unknown user is Invalid user ID <id>', async (t) => {
      const res = await typing(alice, { op: 'start', to: [bob.id, 999_999] });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Invalid user ID 999999'));
    });

    t.test('an unknown email is Invalid email', async (t) => {
      const res = await typing(alice, { op: 'start', to: ['nobody@example.com'] });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD("Invalid email 'nobody@example.com'"));
    });

    t.test('a sender who turned direct typing notifications off is refused', async (t) => {
      const reader = await QueueReader.register(as(bob));
      await updateSettings(as(alice), { send_private_typing_notifications: false });
      t.teardown(() => updateSettings(as(alice), { send_private_typing_notifications: true }));
      const res = await typing(alice, { op: 'start', to: [bob.id] });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('User has disabled typing notifications for direct messages'));
      const stream = await typing(alice, { type: 'stream', op: 'start', to: [roomId], topic: 'still allowed' });
      t.equal(stream.status, 200, 'the stream setting is separate');
      t.strictSame(await reader.read(), [], 'the refused notice reached no one');
    });

    t.test('a sender who turned stream typing notifications off is refused', async (t) => {
      const reader = await QueueReader.register(as(bob), { stream_typing_notifications: true });
      await updateSettings(as(alice), { send_stream_typing_notifications: false });
      t.teardown(() => updateSettings(as(alice), { send_stream_typing_notifications: true }));
      const res = await typing(alice, { type: 'stream', op: 'start', to: [roomId], topic: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('User has disabled typing notifications for stream messages'));
      t.strictSame(await reader.read(), []);
    });
  });

  t.test('direct typing reaches the other participants, with every participant listed', async (t) => {
    const [aliceQueue, bobQueue, carolQueue, ownerQueue] = await Promise.all([
      QueueReader.register(as(alice)),
      QueueReader.register(as(bob)),
      QueueReader.register(as(carol)),
      QueueReader.register(owner),
    ]);
    const res = await typing(alice, { type: 'direct', op: 'start', to: [bob.id, carol.id] });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '' });
    const start = {
      type: 'typing',
      op: 'start',
      message_type: 'private',
      sender: participant(alice),
      recipients: [participant(bob), participant(carol), participant(alice)],
    };
    t.strictSame(await bobQueue.read(), [start]);
    t.strictSame(await carolQueue.read(), [start]);
    t.strictSame(await aliceQueue.read(), [], 'not to the sender');
    t.strictSame(await ownerQueue.read(), [], 'not to anyone outside the conversation');

    t.equal((await typing(alice, { op: 'stop', to: [bob.id, carol.id] })).status, 200, 'type defaults to direct');
    t.strictSame(await bobQueue.read(), [{ ...start, op: 'stop' }]);
    t.strictSame(await carolQueue.read(), [{ ...start, op: 'stop' }]);
    t.strictSame(await aliceQueue.read(), []);
  });

  t.test('the deprecated type private, a bare ID and API emails name the same conversation', async (t) => {
    const bobQueue = await QueueReader.register(as(bob));
    const start = {
      type: 'typing',
      op: 'start',
      message_type: 'private',
      sender: participant(alice),
      recipients: [participant(bob), participant(alice)],
    };
    t.equal((await typing(alice, { type: 'private', op: 'start', to: [bob.id] })).status, 200);
    t.equal((await typing(alice, { op: 'start', to: String(bob.id) })).status, 200);
    t.equal((await typing(alice, { op: 'start', to: [bob.email] })).status, 200);
    t.strictSame(await bobQueue.read(), [start, start, start]);
  });

  t.test('typing to oneself notifies no one', async (t) => {
    const aliceQueue = await QueueReader.register(as(alice));
    const res = await typing(alice, { op: 'start', to: [alice.id] });
    t.equal(res.status, 200);
    t.strictSame(await aliceQueue.read(), []);
  });

  t.test('a deactivated participant stays in the conversation but gets nothing', async (t) => {
    const bobQueue = await QueueReader.register(as(bob));
    await deactivateUser(owner, carol.id);
    t.teardown(() => reactivateUser(owner, carol.id));
    const res = await typing(alice, { op: 'start', to: [bob.id, carol.id] });
    t.equal(res.status, 200);
    t.strictSame(await bobQueue.read(), [
      {
        type: 'typing',
        op: 'start',
        message_type: 'private',
        sender: participant(alice),
        recipients: [participant(bob), participant(carol), participant(alice)],
      },
    ]);
  });

  t.test('stream typing reaches only the other subscribers whose clients declared stream_typing_notifications', async (t) => {
    const [bobQueue, ownerPlainQueue, carolQueue, aliceQueue] = await Promise.all([
      QueueReader.register(as(bob), { stream_typing_notifications: true }),
      QueueReader.register(owner),
      QueueReader.register(as(carol), { stream_typing_notifications: true }),
      QueueReader.register(as(alice), { stream_typing_notifications: true }),
    ]);
    const ownerCapableQueue = await QueueReader.register(owner, { stream_typing_notifications: true });
    const res = await typing(alice, { type: 'stream', op: 'start', to: [roomId], topic: 'plans' });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '' });
    const start = { type: 'typing', op: 'start', message_type: 'stream', sender: participant(alice), stream_id: roomId, topic: 'plans' };
    t.strictSame(await bobQueue.read(), [start]);
    t.strictSame(await ownerCapableQueue.read(), [start], `the owner (${ownerId}) with the capability`);
    t.strictSame(await ownerPlainQueue.read(), [], 'not to a queue without the capability');
    t.strictSame(await carolQueue.read(), [], 'not to a non-subscriber');
    t.strictSame(await aliceQueue.read(), [], 'not to the sender');

    t.equal((await typing(alice, { type: 'stream', op: 'stop', to: [roomId], topic: 'plans' })).status, 200);
    t.strictSame(await bobQueue.read(), [{ ...start, op: 'stop' }]);
  });
});

t.test('a start that is not renewed is followed by a stop from the server', async (t) => {
  const server = await startServer({ env: { TYPING_STARTED_EXPIRY_MS: '200' } });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(owner, 'Alice');
  const bob = await createMember(owner, 'Bob');
  const bobQueue = await QueueReader.register(owner.as(bob));

  t.equal((await owner.as(alice).post('/typing', { op: 'start', to: [bob.id] })).status, 200);
  const start = {
    type: 'typing',
    op: 'start',
    message_type: 'private',
    sender: participant(alice),
    recipients: [participant(bob), participant(alice)],
  };
  t.strictSame(await bobQueue.read(), [start]);
  // A parked poll: the expiry's stop wakes it.
  t.strictSame(await bobQueue.read(true), [{ ...start, op: 'stop' }]);

  t.test('an explicit stop cancels the expiry: no second stop follows', async (t) => {
    const carol = await createMember(owner, 'Carol');
    t.equal((await owner.as(alice).post('/typing', { op: 'start', to: [bob.id] })).status, 200);
    t.equal((await owner.as(alice).post('/typing', { op: 'stop', to: [bob.id] })).status, 200);
    t.strictSame(await bobQueue.read(), [start, { ...start, op: 'stop' }]);
    // A later conversation's expiry wakes the parked poll; a stop left armed for the first
    // conversation would have come before it.
    t.equal((await owner.as(alice).post('/typing', { op: 'start', to: [bob.id, carol.id] })).status, 200);
    const group = { ...start, recipients: [participant(bob), participant(carol), participant(alice)] };
    t.strictSame(await bobQueue.read(), [group]);
    t.strictSame(await bobQueue.read(true), [{ ...group, op: 'stop' }]);
  });
});
