import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { responseViolations } from '../helpers/openapi';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { emailConfirmationPath } from '../helpers/people';
import { hasFields } from '../helpers/exact';

// The realm settings these tests change, at their defaults (SPEC PATCH /realm).
const REALM_DEFAULTS = { name_changes_disabled: false, email_changes_disabled: false };

const badRequest = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

t.test('PATCH /settings', async (t) => {
  const server = await startServer({ env: { LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const file = new RealmFile(server);
  t.teardown(() => file.close());
  const alice = await createMember(api, 'Alice');
  const asAlice = api.as(alice);
  const patch = (params: Record<string, string | number | boolean | object>, client = asAlice, path = '/settings') =>
    client.call('PATCH', path, params);

  t.test('enumerated integers outside their values are refused by name', async (t) => {
    const cases: [string, number][] = [
      ['web_mark_read_on_scroll_policy', 4],
      ['color_scheme', 0],
      ['demote_inactive_streams', 4],
      ['user_list_style', 0],
      ['desktop_icon_count_display', 4],
      ['realm_name_in_email_notifications_policy', 4],
      ['email_address_visibility', 6],
    ];
    for (const [name, value] of cases) {
      const res = await patch({ [name]: value });
      t.equal(res.status, 400, name);
      t.strictSame(res.body, badRequest(`Invalid ${name}`), name);
    }
  });

  t.test('strings outside their fixed lists are refused', async (t) => {
    t.strictSame((await patch({ default_language: 'xx' })).body, badRequest('Invalid default_language'));
    t.strictSame((await patch({ default_view: 'inbox' })).body, badRequest('Invalid default_view'));
    t.strictSame((await patch({ emojiset: 'google' })).body, badRequest('Invalid emojiset'));
    t.strictSame((await patch({ notification_sound: 'beep' })).body, badRequest("Invalid notification sound 'beep'"));
    const zone = await patch({ timezone: 'Mars/Olympus_Mons' });
    t.equal(zone.status, 400);
    t.strictSame(zone.body, badRequest('timezone is not a recognized time zone'));
  });

  t.test('the email batching period must be positive and at most a week', async (t) => {
    t.strictSame(
      (await patch({ email_notifications_batching_period_seconds: 0 })).body,
      badRequest('Invalid email batching period: 0 seconds'),
    );
    t.strictSame(
      (await patch({ email_notifications_batching_period_seconds: 604801 })).body,
      badRequest('Invalid email batching period: 604801 seconds'),
    );
  });

  t.test('wire types: booleans and integers are JSON', async (t) => {
    const notJson = await patch({ dense_mode: 'yes' });
    t.equal(notJson.status, 400);
    t.strictSame(notJson.body, badRequest('Argument "dense_mode" is not valid JSON.'));
    const notBool = await patch({ dense_mode: 5 });
    t.strictSame(notBool.body, {
      result: 'error',
      msg: 'dense_mode is not a boolean',
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'dense_mode',
    });
    const notInt = await patch({ color_scheme: '"dark"' });
    t.strictSame(notInt.body, {
      result: 'error',
      msg: 'color_scheme is not an integer',
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'color_scheme',
    });
  });

  t.test('full_name follows the length and character rules', async (t) => {
    t.strictSame((await patch({ full_name: '   ' })).body, badRequest('Name too short!'));
    t.strictSame((await patch({ full_name: 'x'.repeat(101) })).body, badRequest('Name too long!'));
    t.strictSame((await patch({ full_name: 'Bad\u0007Name' })).body, badRequest('Invalid characters in name!'));
  });

  t.test('a realm with name_changes_disabled refuses renames except by administrators', async (t) => {
    await updateRealm(api, { name_changes_disabled: true });
    t.teardown(() => updateRealm(api, REALM_DEFAULTS));
    const refused = await patch({ full_name: 'Alice Renamed' });
    t.equal(refused.status, 400);
    t.strictSame(refused.body, badRequest('Name changes are disabled in this organization. Contact an administrator to change your name.'));
    const admin = await patch({ full_name: 'Owner Renamed' }, api);
    t.equal(admin.status, 200, admin.text);
    t.equal((await api.get('/users/me')).body['full_name'], 'Owner Renamed');
  });

  t.test('a new password needs the correct old one and some length', async (t) => {
    t.strictSame((await patch({ new_password: 'another-secret' })).body, badRequest('Wrong password!'));
    t.strictSame((await patch({ old_password: 'wrong', new_password: 'another-secret' })).body, badRequest('Wrong password!'));
    const current = `pw-${alice.email.match(/(\d+)-/)?.[1] ?? ''}-secret`;
    t.strictSame((await patch({ old_password: current, new_password: 'abc' })).body, badRequest('New password is too weak!'));
  });

  t.test('an email change refuses bad and taken addresses, and realms that forbid it', async (t) => {
    t.strictSame((await patch({ email: 'not-an-address' })).body, badRequest('Invalid address.'));
    t.strictSame((await patch({ email: server.owner.email })).body, badRequest('Already has an account.'));
    await updateRealm(api, { email_changes_disabled: true });
    const refused = await patch({ email: 'alice-new@example.org' });
    await updateRealm(api, REALM_DEFAULTS);
    t.strictSame(refused.body, badRequest('Email address changes are disabled in this organization.'));
  });

  t.test('an unknown confirmation token is refused', async (t) => {
    const res = await api.as(null).get('/settings/email_confirm/not-a-token');
    t.equal(res.status, 400);
    t.strictSame(res.body, badRequest('The confirmation link has expired or been deactivated.'));
  });

  t.test('every setting is stored and returned by register', async (t) => {
    const values = {
      twenty_four_hour_time: true,
      dense_mode: false,
      web_mark_read_on_scroll_policy: 3,
      starred_message_counts: false,
      fluid_layout_width: true,
      high_contrast_mode: true,
      color_scheme: 2,
      enable_drafts_synchronization: false,
      translate_emoticons: true,
      display_emoji_reaction_users: false,
      default_language: 'de',
      default_view: 'all_messages',
      escape_navigates_to_default_view: false,
      left_side_userlist: true,
      emojiset: 'vendorb',
      demote_inactive_streams: 3,
      user_list_style: 1,
      enable_stream_desktop_notifications: true,
      enable_stream_email_notifications: true,
      enable_stream_push_notifications: true,
      enable_stream_audible_notifications: true,
      notification_sound: 'ding',
      enable_desktop_notifications: false,
      enable_sounds: false,
      email_notifications_batching_period_seconds: 600,
      enable_offline_email_notifications: false,
      enable_offline_push_notifications: false,
      enable_online_push_notifications: false,
      enable_digest_emails: false,
      enable_marketing_emails: false,
      enable_login_emails: false,
      message_content_in_email_notifications: false,
      pm_content_in_desktop_notifications: false,
      wildcard_mentions_notify: false,
      desktop_icon_count_display: 3,
      realm_name_in_email_notifications_policy: 2,
      presence_enabled: false,
      enter_sends: true,
      send_private_typing_notifications: false,
      send_stream_typing_notifications: false,
      send_read_receipts: false,
      email_address_visibility: 2,
    };
    const bob = await createMember(api, 'Bob');
    const res = await patch({ ...values, timezone: 'Europe/Berlin' }, api.as(bob));
    t.equal(res.status, 200, res.text);
    t.strictSame(res.body, { result: 'success', msg: '' });
    const state = (await api.as(bob).post('/register', { fetch_event_types: ['user_settings', 'update_display_settings'] })).body;
    hasFields(t, state['user_settings'], { ...values, timezone: 'Europe/Berlin' });
    t.equal(state['enter_sends'], true, 'enter_sends at top level for clients without user_settings_object');
  });

  t.test('unknown parameters come back in ignored_parameters_unsupported; the body conforms', async (t) => {
    const res = await patch({ dense_mode: true, not_a_setting: 1, another: 'x' });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['another', 'not_a_setting'] });
    t.strictSame(responseViolations('patch', '/settings', res.body), []);
  });

  t.test('the deprecated /settings/display and /settings/notifications are the same endpoint', async (t) => {
    const display = await patch({ color_scheme: 3, enable_sounds: false }, asAlice, '/settings/display');
    t.strictSame(display.body, { result: 'success', msg: '' });
    const notifications = await patch({ notification_sound: 'knock' }, asAlice, '/settings/notifications');
    t.strictSame(notifications.body, { result: 'success', msg: '' });
    const bad = await patch({ color_scheme: 9 }, asAlice, '/settings/notifications');
    t.strictSame(bad.body, badRequest('Invalid color_scheme'));
    const state = (await asAlice.post('/register', { fetch_event_types: ['user_settings'] })).body;
    hasFields(t, state['user_settings'], { color_scheme: 3, enable_sounds: false, notification_sound: 'knock' });
  });

  t.test('a renamed user is shown with the new name', async (t) => {
    t.strictSame((await patch({ full_name: '  Alice Cooper ' })).body, { result: 'success', msg: '' });
    const shown = (await api.get(`/users/${alice.id}`)).body['user'] as Record<string, unknown>;
    t.equal(shown['full_name'], 'Alice Cooper', 'trimmed');
  });

  t.test('the password changes, and POST /fetch_api_key takes the new one', async (t) => {
    const carol = await createMember(api, 'Carol');
    const old = `pw-${carol.email.match(/(\d+)-/)?.[1] ?? ''}-secret`;
    const changed = await patch({ old_password: old, new_password: 'brand-new-secret' }, api.as(carol));
    t.strictSame(changed.body, { result: 'success', msg: '' });
    const withNew = await api.as(null).post('/fetch_api_key', { username: carol.email, password: 'brand-new-secret' });
    t.equal(withNew.status, 200);
    t.equal(withNew.body['api_key'], carol.key);
    const withOld = await api.as(null).post('/fetch_api_key', { username: carol.email, password: old });
    t.equal(withOld.status, 401);
    t.strictSame(withOld.body, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
  });

  t.test('an email change waits for the logged link, which applies it once', async (t) => {
    const dave = await createMember(api, 'Dave');
    const started = await patch({ email: 'dave-new@example.org' }, api.as(dave));
    t.strictSame(started.body, { result: 'success', msg: '' });
    t.equal(
      ((await api.get(`/users/${dave.id}`)).body['user'] as Record<string, unknown>)['delivery_email'],
      dave.email,
      'unchanged until confirmed',
    );
    const path = await emailConfirmationPath(server, dave.id);
    t.ok(path, 'the confirmation link is in the log');
    const confirmed = await api.as(null).get(path);
    t.equal(confirmed.status, 200);
    t.strictSame(confirmed.body, { result: 'success', msg: '', email: 'dave-new@example.org' });
    const me = (await api.as({ email: 'dave-new@example.org', key: dave.key }).get('/users/me')).body;
    hasFields(t, me, { email: 'dave-new@example.org', delivery_email: 'dave-new@example.org' });
    const again = await api.as(null).get(path);
    t.strictSame(again.body, badRequest('The confirmation link has expired or been deactivated.'));
  });

  t.test('an expired confirmation link is refused and changes nothing', async (t) => {
    const gil = await createMember(api, 'Gil');
    await patch({ email: 'gil-new@example.org' }, api.as(gil));
    const token = String(file.value('SELECT token FROM email_changes WHERE user_id = ?', gil.id));
    // Kept a file write (time travel): the link's expiry put in the past, where no clock can be wrong.
    file.run('UPDATE email_changes SET expires_at = 1 WHERE user_id = ?', gil.id);
    const res = await api.as(null).get(`/settings/email_confirm/${token}`);
    t.equal(res.status, 400);
    t.strictSame(res.body, badRequest('The confirmation link has expired or been deactivated.'));
    t.equal(((await api.get(`/users/${gil.id}`)).body['user'] as Record<string, unknown>)['delivery_email'], gil.email);
  });

  t.test('settings take effect: typing notifications and emoticon translation', async (t) => {
    const erin = await createMember(api, 'Erin');
    await patch({ send_private_typing_notifications: false, translate_emoticons: true }, api.as(erin));
    const typing = await api.as(erin).post('/typing', { op: 'start', to: [alice.id] });
    t.strictSame(typing.body, badRequest('User has disabled typing notifications for direct messages'));
    const sent = await api.as(erin).post('/messages', { type: 'direct', to: [alice.id], content: 'fine :)' });
    const rendered = String((await fetchMessage(api.as(erin), sent.body['id']))['content']);
    t.match(rendered, /emoji/, 'the sender translates emoticons');
    const plain = await api.as(alice).post('/messages', { type: 'direct', to: [erin.id], content: 'fine :)' });
    t.notMatch(String((await fetchMessage(api.as(alice), plain.body['id']))['content']), /emoji/);
  });
});
