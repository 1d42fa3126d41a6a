import t from 'tap';
import { EventReader, received } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

t.test('events of realm data and personal data', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);
  const general = await streamIdOf(api, 'general');
  const linkifierCapability = { client_capabilities: { linkifier_url_template: true } };

  t.test('a linkifier change sends the whole list to everyone who declared linkifier_url_template', async (t) => {
    const modern = await EventReader.register(bob, linkifierCapability);
    const legacy = await EventReader.register(bob);
    const added = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tickets.test/{id}' });
    t.equal(added.status, 200);
    const id = added.body['id'] as number;
    t.strictSame(await modern.nextPayloads(), [
      { type: 'realm_linkifiers', realm_linkifiers: [{ id, pattern: '#(?P<id>[0-9]+)', url_template: 'https://tickets.test/{id}' }] },
    ]);
    t.strictSame(await legacy.nextPayloads(), [], 'older clients get no realm_linkifiers events');
    t.equal((await api.call('DELETE', `/realm/filters/${id}`)).status, 200);
    t.strictSame(await modern.nextPayloads(), [{ type: 'realm_linkifiers', realm_linkifiers: [] }]);
  });

  t.test('alert words: the whole list, to the user alone', async (t) => {
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    await alice.post('/users/me/alert_words', { alert_words: ['pear', 'apple'] });
    t.strictSame(
      await aliceQueue.nextPayloads(),
      [{ type: 'alert_words', alert_words: ['pear', 'apple'] }],
      'in the order GET returns them',
    );
    await alice.call('DELETE', '/users/me/alert_words', { alert_words: ['pear'] });
    t.strictSame(await aliceQueue.nextPayloads(), [{ type: 'alert_words', alert_words: ['apple'] }]);
    t.strictSame(await bobQueue.nextPayloads(), []);
  });

  t.test('a new user group is sent whole to every user', async (t) => {
    const bobQueue = await EventReader.register(bob);
    const res = await alice.post('/user_groups/create', {
      name: 'gardeners',
      description: 'Green thumbs',
      members: [aliceCreds.id, bobCreds.id],
    });
    t.equal(res.status, 200);
    const [event] = await bobQueue.nextPayloads();
    const group = event?.['group'] as Record<string, unknown>;
    t.strictSame(event, {
      type: 'user_group',
      op: 'add',
      group: {
        id: group['id'],
        name: 'gardeners',
        description: 'Green thumbs',
        members: [aliceCreds.id, bobCreds.id],
        direct_subgroup_ids: [],
        is_system_group: false,
      },
    });
    t.type(group['id'], 'number');
  });

  t.test('scheduled messages: add, update and remove, to the owner only', async (t) => {
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    const later = Math.floor(Date.now() / 1000) + 3600;
    const created = await alice.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'plans',
      content: 'soon *enough*',
      scheduled_delivery_timestamp: later,
    });
    t.equal(created.status, 200, created.text);
    const id = created.body['scheduled_message_id'] as number;
    const object = {
      scheduled_message_id: id,
      type: 'stream',
      to: general,
      topic: 'plans',
      content: 'soon *enough*',
      rendered_content: '<p>soon <em>enough</em></p>',
      scheduled_delivery_timestamp: later,
      failed: false,
    };
    t.strictSame(await aliceQueue.nextPayloads(), [{ type: 'scheduled_messages', op: 'add', scheduled_messages: [object] }]);
    t.equal((await alice.call('PATCH', `/scheduled_messages/${id}`, { content: 'later' })).status, 200);
    t.strictSame(await aliceQueue.nextPayloads(), [
      { type: 'scheduled_messages', op: 'update', scheduled_message: { ...object, content: 'later', rendered_content: '<p>later</p>' } },
    ]);
    t.equal((await alice.call('DELETE', `/scheduled_messages/${id}`)).status, 200);
    t.strictSame(await aliceQueue.nextPayloads(), [{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
    t.strictSame(await bobQueue.nextPayloads(), [], 'another user learns nothing');
  });

  t.test('every event received validated against the declared union', async (t) => {
    t.ok(received.count > 0);
    t.strictSame(received.invalid, []);
  });
});
