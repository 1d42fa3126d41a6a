/**
 * Reducers for the user group, profile field, playground and draft events (api-notes
 * §d), used by apply-events.ts.
 */
type State = Record<string, unknown>;
type Event = Record<string, unknown>;
type Row = Record<string, unknown>;

const ascending = (a: number, b: number) => a - b;

export function applyUserGroup(state: State, event: Event): void {
  if (!('realm_user_groups' in state)) return;
  const groups = state['realm_user_groups'] as Row[];
  const op = event['op'];
  if (op === 'add') {
    state['realm_user_groups'] = [...groups, event['group'] as Row];
    return;
  }
  const groupId = event['group_id'];
  if (op === 'remove') {
    state['realm_user_groups'] = groups
      .filter((g) => g['id'] !== groupId)
      .map((g) => ({ ...g, direct_subgroup_ids: (g['direct_subgroup_ids'] as number[]).filter((id) => id !== groupId) }));
    return;
  }
  state['realm_user_groups'] = groups.map((group) => {
    if (group['id'] !== groupId) return group;
    const members = group['members'] as number[];
    const subgroups = group['direct_subgroup_ids'] as number[];
    switch (op) {
      case 'update':
        return { ...group, ...(event['data'] as Row) };
      case 'add_members':
        return { ...group, members: [...members, ...(event['user_ids'] as number[])].sort(ascending) };
      case 'remove_members':
        return { ...group, members: members.filter((id) => !(event['user_ids'] as number[]).includes(id)) };
      case 'add_subgroups':
        return { ...group, direct_subgroup_ids: [...subgroups, ...(event['direct_subgroup_ids'] as number[])].sort(ascending) };
      case 'remove_subgroups':
        return { ...group, direct_subgroup_ids: subgroups.filter((id) => !(event['direct_subgroup_ids'] as number[]).includes(id)) };
      default:
        return group;
    }
  });
}

/** `drafts`: newest first, as register lists them (api-notes §e). */
export function applyDrafts(state: State, event: Event): void {
  if (!('drafts' in state)) return;
  const current = state['drafts'] as Row[];
  const newestFirst = (a: Row, b: Row) =>
    (b['timestamp'] as number) - (a['timestamp'] as number) || (b['id'] as number) - (a['id'] as number);
  if (event['op'] === 'add') state['drafts'] = [...current, ...(event['drafts'] as Row[])].sort(newestFirst);
  if (event['op'] === 'update') {
    const draft = event['draft'] as Row;
    state['drafts'] = current.map((d) => (d['id'] === draft['id'] ? draft : d)).sort(newestFirst);
  }
  if (event['op'] === 'remove') state['drafts'] = current.filter((d) => d['id'] !== event['draft_id']);
}

type ProfileData = Record<string, Row>;

function mapProfileData(state: State, change: (userId: number, data: ProfileData) => ProfileData): void {
  for (const key of ['realm_users', 'realm_non_active_users']) {
    if (!(key in state)) continue;
    state[key] = (state[key] as Row[]).map((person) =>
      'profile_data' in person
        ? { ...person, profile_data: change(person['user_id'] as number, person['profile_data'] as ProfileData) }
        : person,
    );
  }
}

/** `custom_profile_fields`: the whole list; values of fields that are gone are dropped. */
export function applyCustomProfileFields(state: State, event: Event): void {
  const fields = event['fields'] as Row[];
  if ('custom_profile_fields' in state) state['custom_profile_fields'] = fields;
  const live = new Set(fields.map((field) => String(field['id'])));
  mapProfileData(state, (_userId, data) => Object.fromEntries(Object.entries(data).filter(([id]) => live.has(id))));
}

/** `realm_user` update with `custom_profile_field`: one value set (or removed when null). */
export function applyProfileFieldValue(state: State, event: Event): void {
  const person = event['person'] as Row;
  const change = person['custom_profile_field'] as Row | undefined;
  if (event['op'] !== 'update' || change === undefined) return;
  const fieldId = String(change['id']);
  mapProfileData(state, (userId, data) => {
    if (userId !== person['user_id']) return data;
    const { [fieldId]: _old, ...rest } = data;
    if (change['value'] === null) return rest;
    const entry: Row = { value: change['value'] };
    if ('rendered_value' in change) entry['rendered_value'] = change['rendered_value'];
    return { ...rest, [fieldId]: entry };
  });
}
