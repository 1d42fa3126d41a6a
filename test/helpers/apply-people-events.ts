/**
 * The reducer's cases for people and bots (api-notes §d realm_user, realm_bot), called from
 * apply-events.ts. Written for the api-notes shapes.
 */
type Row = Record<string, unknown>;

function list(state: Row, key: string): Row[] {
  return (state[key] as Row[] | undefined) ?? [];
}

/** realm_user: add (a reactivated user leaves the non-active list), update, remove (deactivation). */
export function applyRealmUser(state: Row, selfId: number, event: Row): void {
  const person = event['person'] as Row;
  if (event['op'] === 'add' && 'realm_users' in state) {
    const { is_active: _active, ...added } = person;
    state['realm_users'] = [...list(state, 'realm_users'), added];
    if ('realm_non_active_users' in state)
      state['realm_non_active_users'] = list(state, 'realm_non_active_users').filter((p) => p['user_id'] !== added['user_id']);
  }
  // Updates of one person wherever register lists them, and the own identity keys.
  if (event['op'] === 'update') applyPersonUpdate(state, selfId, person);
  if (event['op'] === 'remove') applyPersonRemove(state, person);
}

/**
 * realm_user update (api-notes §d): `new_email` renames the API email, `email` beside
 * `timezone` only identifies the person; every other key is the changed field itself.
 */
function applyPersonUpdate(state: Row, selfId: number, update: Row): void {
  const { user_id: userId, new_email: newEmail, ...fields } = update;
  if (newEmail !== undefined) fields['email'] = newEmail;
  // A role also sets the flags clients derive from it.
  if (typeof fields['role'] === 'number') {
    const role = fields['role'];
    Object.assign(fields, { is_owner: role === 100, is_admin: role <= 200, is_guest: role === 600 });
  }
  for (const key of ['realm_users', 'realm_non_active_users', 'cross_realm_bots']) {
    if (!(key in state)) continue;
    // Only the fields a person object has: the avatar variant also names register's own keys.
    const update = (person: Row): Row =>
      Object.fromEntries(Object.entries(person).map(([name, value]) => [name, name in fields ? fields[name] : value]));
    state[key] = list(state, key).map((person) => (person['user_id'] === userId ? update(person) : person));
  }
  if (userId !== selfId || !('realm_users' in state)) return;
  for (const key of ['email', 'delivery_email', 'full_name', 'avatar_source', 'avatar_url', 'avatar_url_medium'])
    if (key in fields) state[key] = fields[key];
}

/** realm_user remove: to the non-active users, and off every subscriber list. */
function applyPersonRemove(state: Row, removed: Row): void {
  const userId = removed['user_id'];
  if ('realm_users' in state) {
    const person = list(state, 'realm_users').find((p) => p['user_id'] === userId);
    state['realm_users'] = list(state, 'realm_users').filter((p) => p['user_id'] !== userId);
    if (person && 'realm_non_active_users' in state)
      state['realm_non_active_users'] = [...list(state, 'realm_non_active_users'), { ...person, is_active: false }];
  }
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
    if (!(key in state)) continue;
    for (const sub of list(state, key)) {
      if (Array.isArray(sub['subscribers'])) sub['subscribers'] = (sub['subscribers'] as number[]).filter((id) => id !== userId);
    }
  }
}

/** realm_bot: add (or replace), update one property, remove (inactive), delete (no longer administered). */
export function applyRealmBot(state: Row, event: Row): void {
  const bot = event['bot'] as Row;
  const bots = list(state, 'realm_bots');
  const existing = bots.find((b) => b['user_id'] === bot['user_id']);
  if (event['op'] === 'add') state['realm_bots'] = [...bots.filter((b) => b['user_id'] !== bot['user_id']), bot];
  if (event['op'] === 'update' && existing) Object.assign(existing, bot);
  if (event['op'] === 'remove' && existing) existing['is_active'] = false;
  if (event['op'] === 'delete') state['realm_bots'] = bots.filter((b) => b['user_id'] !== bot['user_id']);
}
