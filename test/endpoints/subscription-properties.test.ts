import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

type Subscription = Record<string, unknown> & { stream_id: number; name: string };

t.test('subscription properties', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = owner.as(await createMember(owner, 'Alice'));
  await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'prefs' }, { name: 'public-other' }] });
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'owner-only' }] });
  const streamId = async (name: string): Promise<number> => {
    const res = await owner.get('/streams', { include_all_active: true });
    const stream = (res.body['streams'] as { name: string; stream_id: number }[]).find((s) => s.name === name);
    if (!stream) throw new Error(`no stream ${name}`);
    return stream.stream_id;
  };
  const prefs = await streamId('prefs');
  const secret = await streamId('secret');
  const ownerOnly = await streamId('owner-only');
  const subscriptionOf = async (client: ApiClient, id: number): Promise<Subscription> => {
    const state = (await client.post('/register', { event_types: ['subscription'] })).body;
    const sub = (state['subscriptions'] as Subscription[]).find((s) => s.stream_id === id);
    if (!sub) throw new Error(`not subscribed to ${id}`);
    return sub;
  };
  const change = (stream_id: number, property: string, value: string | boolean) =>
    alice.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id, property, value }] });

  t.test('errors', async (t) => {
    t.test('a colour that is not a hex colour code is refused', async (t) => {
      const res = await change(prefs, 'color', 'red');
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'color is not a valid hex color code', code: 'BAD_REQUEST' });
    });
    t.test('a boolean property given a string is refused', async (t) => {
      const res = await change(prefs, 'pin_to_top', 'yes');
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'pin_to_top is not a boolean', code: 'BAD_REQUEST' });
    });
    t.test('an unknown property is refused', async (t) => {
      const res = await change(prefs, 'font_size', true);
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Unknown subscription property: font_size', code: 'BAD_REQUEST' });
    });
    t.test('a public stream the caller is not subscribed to is refused', async (t) => {
      const res = await change(ownerOnly, 'pin_to_top', true);
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: `Not subscribed to stream id ${ownerOnly}`, code: 'BAD_REQUEST' });
    });
    t.test('a private stream the caller is not in reads as an invalid stream ID', async (t) => {
      const res = await change(secret, 'pin_to_top', true);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
      const missing = await change(999999, 'pin_to_top', true);
      t.strictSame(missing.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
    });
    t.test('one bad entry leaves the valid ones unapplied', async (t) => {
      const res = await alice.post('/users/me/subscriptions/properties', {
        subscription_data: [
          { stream_id: prefs, property: 'pin_to_top', value: true },
          { stream_id: prefs, property: 'color', value: '#12345' },
        ],
      });
      t.equal(res.status, 400);
      t.equal((await subscriptionOf(alice, prefs))['pin_to_top'], false);
    });
    t.test('subscription_data is required', async (t) => {
      const res = await alice.post('/users/me/subscriptions/properties', {});
      t.strictSame(res.body, {
        result: 'error',
        msg: "Missing 'subscription_data' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'subscription_data',
      });
    });
  });

  t.test('every property is stored and sent as an update event to the subscriber', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['subscription'] });
    const res = await alice.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: prefs, property: 'color', value: '#a1b2c3' },
        { stream_id: prefs, property: 'pin_to_top', value: true },
        { stream_id: prefs, property: 'desktop_notifications', value: true },
        { stream_id: prefs, property: 'audible_notifications', value: false },
        { stream_id: prefs, property: 'push_notifications', value: true },
        { stream_id: prefs, property: 'email_notifications', value: false },
        { stream_id: prefs, property: 'wildcard_mentions_notify', value: false },
      ],
      unknown_flag: true,
    });
    t.strictSame(res.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['unknown_flag'] });
    const update = (property: string, value: unknown) => ({ type: 'subscription', op: 'update', stream_id: prefs, property, value });
    t.strictSame(await reader.nextPayloads(), [
      update('color', '#a1b2c3'),
      update('pin_to_top', true),
      update('desktop_notifications', true),
      update('audible_notifications', false),
      update('push_notifications', true),
      update('email_notifications', false),
      update('wildcard_mentions_notify', false),
    ]);
    const sub = await subscriptionOf(alice, prefs);
    hasFields(t, sub, {
      color: '#a1b2c3',
      pin_to_top: true,
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: true,
      email_notifications: false,
      wildcard_mentions_notify: false,
    });
  });

  t.test('is_muted and in_home_view each send two events, one per property', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['subscription'] });
    const update = (property: string, value: unknown) => ({ type: 'subscription', op: 'update', stream_id: prefs, property, value });
    t.equal((await change(prefs, 'is_muted', true)).status, 200);
    t.strictSame(await reader.nextPayloads(), [update('in_home_view', false), update('is_muted', true)]);
    hasFields(t, await subscriptionOf(alice, prefs), { is_muted: true, in_home_view: false });
    t.equal((await change(prefs, 'in_home_view', true)).status, 200);
    t.strictSame(await reader.nextPayloads(), [update('in_home_view', true), update('is_muted', false)]);
    hasFields(t, await subscriptionOf(alice, prefs), { is_muted: false, in_home_view: true });
  });

  t.test('another user receives no event for a personal change', async (t) => {
    const reader = await EventReader.register(owner, { event_types: ['subscription'] });
    t.equal((await change(prefs, 'pin_to_top', false)).status, 200);
    t.strictSame(await reader.nextPayloads(), []);
  });

  t.test('the older PATCH /users/me/subscriptions/{stream_id} form changes one property', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['subscription'] });
    const bad = await alice.call('PATCH', `/users/me/subscriptions/${prefs}`, { property: 'color', value: JSON.stringify('blue') });
    t.strictSame(bad.body, { result: 'error', msg: 'color is not a valid hex color code', code: 'BAD_REQUEST' });
    const res = await alice.call('PATCH', `/users/me/subscriptions/${prefs}`, { property: 'color', value: JSON.stringify('#0f0f0f') });
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(await reader.nextPayloads(), [
      { type: 'subscription', op: 'update', stream_id: prefs, property: 'color', value: '#0f0f0f' },
    ]);
    t.equal((await subscriptionOf(alice, prefs))['color'], '#0f0f0f');
  });
});
