import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { componentSchema, responseViolations, violations } from '../helpers/openapi';
import { deactivateUser } from '../helpers/people';
import { startServer } from '../helpers/server';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const success = { result: 'success', msg: '' };

t.test('custom profile fields', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const aliceCredentials = await createMember(owner, 'Alice');
  const alice = owner.as(aliceCredentials);
  const bob = await createMember(owner, 'Bob');
  const gone = await createMember(owner, 'Gone');
  await deactivateUser(owner, gone.id);

  const create = async (params: Record<string, string | number | boolean | object>): Promise<number> => {
    const res = await owner.post('/realm/profile_fields', params);
    if (res.status !== 200) throw new Error(res.text);
    return res.body['id'] as number;
  };
  const choices = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

  await t.test('creating: errors', async (t) => {
    const post = (params: Record<string, string | number | boolean | object>) => owner.post('/realm/profile_fields', params);
    t.strictSame(
      (await alice.post('/realm/profile_fields', { name: 'x', field_type: 1 })).body,
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
    t.strictSame((await post({ name: 'x' })).body, {
      ...error("Missing 'field_type' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'field_type',
    });
    t.strictSame((await post({ name: '  ', field_type: 1 })).body, error('Label cannot be blank.'));
    t.strictSame((await post({ name: 'x'.repeat(41), field_type: 1 })).body, error('name is too long (limit: 40 characters)'));
    t.strictSame((await post({ name: 'x', hint: 'h'.repeat(81), field_type: 1 })).body, error('hint is too long (limit: 80 characters)'));
    t.strictSame((await post({ name: 'x', field_type: 9 })).body, error('Invalid field type.'));
    t.strictSame(
      (await post({ name: 'Bio', field_type: 2, display_in_profile_summary: true })).body,
      error('Field type not supported for display in profile summary.'),
    );
    t.strictSame(
      (await post({ name: 'Buddy', field_type: 6, display_in_profile_summary: true })).body,
      error('Field type not supported for display in profile summary.'),
    );

    t.test('choice fields need valid, distinct choices', async (t) => {
      t.strictSame((await post({ name: 'Editor', field_type: 3 })).body, error('Field must have at least one choice.'));
      t.strictSame(
        (await post({ name: 'Editor', field_type: 3, field_data: { a: { text: 'A' } } })).body,
        error('order key is missing from field_data'),
      );
      t.strictSame(
        (await post({ name: 'Editor', field_type: 3, field_data: { a: { text: '', order: '1' } } })).body,
        error('field_data["text"] cannot be blank.'),
      );
      t.strictSame(
        (await post({ name: 'Editor', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } })).body,
        error('Field must not have duplicate choices.'),
      );
      t.strictSame(
        (await post({ name: 'Editor', field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } })).body,
        error("'value' cannot be blank."),
      );
    });

    t.test('external account fields need a known subtype or a custom URL pattern', async (t) => {
      t.strictSame((await post({ name: 'Acct', field_type: 7, field_data: {} })).body, error('subtype key is missing from field_data'));
      t.strictSame(
        (await post({ name: 'Acct', field_type: 7, field_data: { subtype: 'myspace' } })).body,
        error('Invalid external account type'),
      );
      t.strictSame(
        (await post({ name: 'Acct', field_type: 7, field_data: { subtype: 'custom' } })).body,
        error('Custom external account must define URL pattern'),
      );
      t.strictSame(
        (await post({ name: 'Acct', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.example.com/' } })).body,
        error("URL pattern must contain '%(username)s'."),
      );
      t.strictSame(
        (await post({ name: 'Acct', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'not a url/%(username)s' } })).body,
        error('field_data["url_pattern"] is not a URL'),
      );
    });
  });

  const phoneResponse = await owner.post('/realm/profile_fields', { name: 'Phone', hint: 'Your number', field_type: 1 });
  t.strictSame(
    responseViolations('post', '/realm/profile_fields', phoneResponse.body),
    [],
    'POST /realm/profile_fields conforms to the reference OpenAPI',
  );
  const phone = phoneResponse.body['id'] as number;
  const bio = await create({ name: 'Bio', field_type: 2 });
  const editor = await create({ name: 'Editor', field_type: 3, field_data: choices, display_in_profile_summary: true });
  const birthday = await create({ name: 'Birthday', field_type: 4 });
  const site = await create({ name: 'Site', field_type: 5, display_in_profile_summary: true });
  const mentor = await create({ name: 'Mentor', field_type: 6 });
  const github = await create({ name: '', field_type: 7, field_data: { subtype: 'github' } });
  const pronouns = await create({ name: 'Pronouns', field_type: 8 });

  await t.test('all eight types are listed in order, as register shows them', async (t) => {
    const res = await owner.get('/realm/profile_fields');
    t.strictSame(responseViolations('get', '/realm/profile_fields', res.body), [], 'the body conforms to the reference OpenAPI');
    const fields = res.body['custom_fields'] as Record<string, unknown>[];
    t.strictSame(
      fields.map((f) => f['id']),
      [phone, bio, editor, birthday, site, mentor, github, pronouns],
    );
    t.strictSame(fields[0], { id: phone, type: 1, name: 'Phone', hint: 'Your number', field_data: '', order: 1 });
    t.strictSame(fields[2], {
      id: editor,
      type: 3,
      name: 'Editor',
      hint: '',
      field_data: JSON.stringify(choices),
      order: 3,
      display_in_profile_summary: true,
    });
    t.strictSame(fields[6], {
      id: github,
      type: 7,
      name: 'GitHub',
      hint: 'Enter your GitHub username',
      field_data: '{"subtype":"github"}',
      order: 7,
    });
    const registered = await alice.post('/register', { fetch_event_types: ['custom_profile_fields'] });
    t.strictSame(registered.body['custom_profile_fields'], fields);
    t.strictSame((registered.body['custom_profile_field_types'] as Record<string, unknown>)['CHOICE'], { id: 3, name: 'List of options' });
  });

  await t.test('a third summary field, a duplicate label and changes to a default account field are refused', async (t) => {
    t.strictSame(
      (await owner.post('/realm/profile_fields', { name: 'Third', field_type: 1, display_in_profile_summary: true })).body,
      error('Only 2 custom profile fields can be displayed in the profile summary.'),
    );
    t.strictSame(
      (await owner.post('/realm/profile_fields', { name: 'phone', field_type: 1 })).body,
      error('A field with that label already exists.'),
    );
    t.strictSame(
      (await owner.call('PATCH', `/realm/profile_fields/${github}`, { name: 'Code' })).body,
      error('Default custom field cannot be updated.'),
    );
    t.strictSame((await owner.call('PATCH', '/realm/profile_fields/999', { name: 'x' })).body, error('Field id 999 not found.'));
    t.strictSame((await owner.call('DELETE', '/realm/profile_fields/999')).body, error('Field id 999 not found.'));
    t.strictSame(
      (await alice.call('DELETE', `/realm/profile_fields/${phone}`)).body,
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
  });

  await t.test('profile data: each type validates its value', async (t) => {
    const patch = (id: number, value: string | number[]) => alice.call('PATCH', '/users/me/profile_data', { data: [{ id, value }] });
    t.strictSame((await patch(999, 'x')).body, error('Field id 999 not found.'));
    t.strictSame((await patch(phone, 'x'.repeat(51))).body, error('Phone is too long (limit: 50 characters)'));
    t.strictSame((await patch(phone, [1])).body, error('Phone is not a string'));
    t.strictSame((await patch(bio, 'x'.repeat(501))).body, error('Bio is too long (limit: 500 characters)'));
    t.strictSame((await patch(editor, 'nano')).body, error("'nano' is not a valid choice for 'Editor'."));
    t.strictSame((await patch(birthday, '2023-02-30')).body, error('Birthday is not a date'));
    t.strictSame((await patch(birthday, 'yesterday')).body, error('Birthday is not a date'));
    t.strictSame((await patch(site, 'example')).body, error('Site is not a URL'));
    t.strictSame((await patch(mentor, 'bob')).body, error('User IDs is not a list'));
    t.strictSame((await patch(mentor, [4242])).body, error('Invalid user ID: 4242'));
    t.strictSame((await patch(mentor, [gone.id])).body, error(`User with ID ${gone.id} is deactivated`));
    t.strictSame((await patch(pronouns, 'x'.repeat(51))).body, error('Pronouns is too long (limit: 50 characters)'));
    const notJson = await alice.call('PATCH', '/users/me/profile_data', { data: 'x' });
    t.strictSame(notJson.body, error('Argument "data" is not valid JSON.'));
  });

  await t.test('profile data: set, shown in user objects and events, changed and removed', async (t) => {
    const reader = await EventReader.register(owner, { event_types: ['realm_user'] });
    // The public API's wire form: `data` JSON-encoded in a urlencoded body.
    const data = [
      { id: phone, value: '+1 555 0100' },
      { id: bio, value: 'I like **bold** claims' },
      { id: editor, value: 'vim' },
      { id: birthday, value: '1990-04-01' },
      { id: site, value: 'https://alice.example.com' },
      { id: mentor, value: [bob.id] },
      { id: github, value: 'alice-gh' },
      { id: pronouns, value: 'she/her' },
    ];
    t.strictSame((await alice.call('PATCH', '/users/me/profile_data', { data: JSON.stringify(data) })).body, success);
    const expected = {
      [phone]: { value: '+1 555 0100', rendered_value: '<p>+1 555 0100</p>' },
      [bio]: { value: 'I like **bold** claims', rendered_value: '<p>I like <strong>bold</strong> claims</p>' },
      [editor]: { value: 'vim' },
      [birthday]: { value: '1990-04-01' },
      [site]: { value: 'https://alice.example.com' },
      [mentor]: { value: JSON.stringify([bob.id]) },
      [github]: { value: 'alice-gh' },
      [pronouns]: { value: 'she/her' },
    };
    const me = await alice.get('/users/me');
    t.strictSame(me.body['profile_data'], expected, 'GET /users/me');
    t.strictSame(
      violations(componentSchema('profile_data'), me.body['profile_data']),
      [],
      'profile_data conforms to the reference OpenAPI',
    );
    const registered = await owner.post('/register', { fetch_event_types: ['realm_user'] });
    const person = (registered.body['realm_users'] as Record<string, unknown>[]).find((p) => p['user_id'] === aliceCredentials.id);
    t.strictSame(person?.['profile_data'], expected, "register's realm_users");

    const events = await reader.nextPayloads();
    t.equal(events.length, 8, 'one realm_user update per field');
    t.strictSame(events[1], {
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: aliceCredentials.id,
        custom_profile_field: { id: bio, value: 'I like **bold** claims', rendered_value: '<p>I like <strong>bold</strong> claims</p>' },
      },
    });

    t.strictSame(
      (
        await alice.call('PATCH', '/users/me/profile_data', {
          data: [
            { id: phone, value: '+1 555 0100' },
            { id: editor, value: 'emacs' },
          ],
        })
      ).body,
      success,
    );
    t.strictSame(
      await reader.nextPayloads(),
      [
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: aliceCredentials.id, custom_profile_field: { id: editor, value: 'emacs' } },
        },
      ],
      'an unchanged value sends nothing',
    );

    t.strictSame((await alice.call('DELETE', '/users/me/profile_data', { data: [pronouns] })).body, success);
    t.strictSame(await reader.nextPayloads(), [
      { type: 'realm_user', op: 'update', person: { user_id: aliceCredentials.id, custom_profile_field: { id: pronouns, value: null } } },
    ]);
    t.strictSame((await alice.call('DELETE', '/users/me/profile_data', { data: [999] })).body, error('Field id 999 not found.'));
    t.notOk(String(pronouns) in ((await alice.get('/users/me')).body['profile_data'] as object));
  });

  await t.test(
    "PATCH /users/{user_id} sets another user's profile data: administrators only, checked before anything is written",
    async (t) => {
      const path = `/users/${bob.id}`;
      const nameBefore = ((await owner.get(path)).body['user'] as Record<string, unknown>)['full_name'];
      t.strictSame(
        (await alice.call('PATCH', path, { profile_data: JSON.stringify([{ id: phone, value: '1' }]) })).body,
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
      // A bad value refuses the whole request: the new name is not applied either.
      const refused = await owner.call('PATCH', path, {
        full_name: 'Bobby',
        profile_data: JSON.stringify([{ id: editor, value: 'nano' }]),
      });
      t.strictSame(refused.body, error("'nano' is not a valid choice for 'Editor'."));
      const unchanged = await owner.get(path);
      t.equal((unchanged.body['user'] as Record<string, unknown>)['full_name'], nameBefore);
      const set = await owner.call('PATCH', path, {
        full_name: 'Bobby',
        profile_data: JSON.stringify([
          { id: editor, value: 'emacs' },
          { id: pronouns, value: 'he/him' },
        ]),
      });
      t.strictSame(set.body, success);
      const shown = (await owner.get(path, { include_custom_profile_fields: true })).body['user'] as Record<string, unknown>;
      t.equal(shown['full_name'], 'Bobby');
      t.strictSame(shown['profile_data'], { [editor]: { value: 'emacs' }, [pronouns]: { value: 'he/him' } });
    },
  );

  await t.test('administrators edit, reorder and delete fields; each change sends the whole list', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['custom_profile_fields'] });
    t.strictSame(
      (await owner.call('PATCH', `/realm/profile_fields/${phone}`, { name: 'Telephone', hint: 'With country code' })).body,
      success,
    );
    let [event] = await reader.nextPayloads();
    t.strictSame((event?.['fields'] as Record<string, unknown>[])[0], {
      id: phone,
      type: 1,
      name: 'Telephone',
      hint: 'With country code',
      field_data: '',
      order: 1,
    });

    t.strictSame((await owner.call('PATCH', '/realm/profile_fields', { order: [pronouns, phone] })).body, error('Invalid order mapping.'));
    const order = [pronouns, github, mentor, site, birthday, editor, bio, phone];
    t.strictSame((await owner.call('PATCH', '/realm/profile_fields', { order })).body, success);
    [event] = await reader.nextPayloads();
    t.strictSame(
      (event?.['fields'] as Record<string, unknown>[]).map((f) => [f['id'], f['order']]),
      order.map((id, index) => [id, index]),
    );
    t.strictSame(
      ((await owner.get('/realm/profile_fields')).body['custom_fields'] as Record<string, unknown>[]).map((f) => f['id']),
      order,
    );

    // Dropping a choice drops the values that chose it (Alice chose emacs).
    const fewer = { vim: { text: 'Vim', order: '1' } };
    t.strictSame((await owner.call('PATCH', `/realm/profile_fields/${editor}`, { field_data: fewer })).body, success);
    t.notOk(String(editor) in ((await alice.get('/users/me')).body['profile_data'] as object));
    [event] = await reader.nextPayloads();
    t.equal((event?.['fields'] as Record<string, unknown>[]).find((f) => f['id'] === editor)?.['field_data'], JSON.stringify(fewer));

    t.strictSame((await owner.call('DELETE', `/realm/profile_fields/${bio}`)).body, success);
    const afterDelete = await reader.nextPayloads();
    t.strictSame(
      afterDelete.map((e) => (e['fields'] as Record<string, unknown>[]).map((f) => f['id'])),
      [order.filter((id) => id !== bio)],
      'one event without the field',
    );
    t.notOk(((await owner.get('/realm/profile_fields')).body['custom_fields'] as Record<string, unknown>[]).some((f) => f['id'] === bio));
    t.notOk(String(bio) in ((await alice.get('/users/me')).body['profile_data'] as object), 'the values go with the field');
  });
});
