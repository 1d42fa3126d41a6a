import t from 'tap';
import { issuesOf } from '../../workers/lib/contract';
import { FETCH_TYPES, registerResultSchema } from '../../workers/schemas/register';
import { updatedRealmSettingsSchema } from '../../workers/schemas/realm-settings';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// POST /register and PATCH /realm declare every key they answer (workers/schemas/register.ts,
// realm-settings.ts, user-settings.ts): real answers pass, and an added, re-typed or (within a
// fetched type) missing key is named, as CONTRACT_CHECKS names it in every test server.

type Body = Record<string, unknown>;

/** The body's fields beside `result` and `msg`: what the result schema describes. */
function fields(body: Body): Body {
  const { result: _result, msg: _msg, ...rest } = body;
  return rest;
}

t.test('each register key belongs to one fetch type', async (t) => {
  const owners = new Map<string, string[]>();
  for (const [type, shape] of Object.entries(FETCH_TYPES)) {
    for (const key of Object.keys(shape)) owners.set(key, [...(owners.get(key) ?? []), type]);
  }
  t.strictSame(
    [...owners].filter(([, types]) => types.length > 1),
    [],
  );
});

t.test('the register and PATCH /realm schemas hold every key, each with its type', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  // Every fetch type, the legacy settings keys included (no user_settings_object capability).
  const everything = await api.post('/register', {});
  t.equal(everything.status, 200, everything.text);
  const state = fields(everything.body);
  t.equal(issuesOf(registerResultSchema, state), '', 'a full answer conforms');
  const legacy = fields((await api.post('/register', { fetch_event_types: ['muted_topics'] })).body);
  t.equal(issuesOf(registerResultSchema, legacy), '', 'the legacy muted_topics answer conforms');

  const cases: [string, Body, string][] = [
    ['an added key', { ...state, realm_new_setting: true }, '(root): Unrecognized key: "realm_new_setting"'],
    [
      'a re-typed realm setting',
      { ...state, realm_edit_topic_policy: '5' },
      'realm_edit_topic_policy: Invalid input: expected number, received string',
    ],
    ['a re-typed user setting', { ...state, enter_sends: 0 }, 'enter_sends: Invalid input: expected boolean, received number'],
    ['a re-typed limit', { ...state, max_message_length: 10000.5 }, 'max_message_length: Invalid input: expected int, received number'],
    [
      'a null server fact',
      { ...state, server_needs_upgrade: null },
      'server_needs_upgrade: Invalid input: expected boolean, received null',
    ],
  ];
  for (const [what, body, issue] of cases) t.equal(issuesOf(registerResultSchema, body), issue, what);

  const { realm_enable_spectator_access: _dropped, ...withoutSetting } = state;
  t.equal(
    issuesOf(registerResultSchema, withoutSetting),
    '(root): a fetch type came in part: realm without realm_enable_spectator_access',
    'a missing key of a fetched type',
  );
  const { avatar_url_medium: _medium, can_create_streams: _create, ...withoutOwnKeys } = state;
  t.equal(
    issuesOf(registerResultSchema, withoutOwnKeys),
    '(root): a fetch type came in part: realm_user without avatar_url_medium, can_create_streams',
  );

  // PATCH /realm: a real answer naming one setting of each kind.
  const patched = await api.call('PATCH', '/realm', {
    name: 'Renamed',
    edit_topic_policy: 2,
    mandatory_topics: true,
    message_content_edit_limit_seconds: 'unlimited',
    authentication_methods: { Email: true, Dev: true },
  });
  t.equal(patched.status, 200, patched.text);
  t.strictSame(patched.body, {
    result: 'success',
    msg: '',
    name: 'updated',
    edit_topic_policy: 2,
    mandatory_topics: true,
    message_content_edit_limit_seconds: null,
    authentication_methods: { Email: true, Dev: true },
  });
  const answer = fields(patched.body);
  t.equal(issuesOf(updatedRealmSettingsSchema, answer), '');
  t.equal(issuesOf(updatedRealmSettingsSchema, { ...answer, name: 'Renamed' }), 'name: Invalid input: expected "updated"');
  t.equal(
    issuesOf(updatedRealmSettingsSchema, { ...answer, mandatory_topics: 1 }),
    'mandatory_topics: Invalid input: expected boolean, received number',
  );
  t.equal(issuesOf(updatedRealmSettingsSchema, { ...answer, topics_policy: 1 }), '(root): Unrecognized key: "topics_policy"');
  t.equal(
    issuesOf(updatedRealmSettingsSchema, { ...answer, message_content_edit_limit_seconds: 0 }),
    'message_content_edit_limit_seconds: Too small: expected number to be >0',
  );
});
