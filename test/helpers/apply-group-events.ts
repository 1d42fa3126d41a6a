/**
 * groups: reducers for the user group, profile field, playground and draft events (api-notes
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
  const newestFirst = (a: Row, b: Row) => (b['timestamp'] as number) - (a['timestamp'] as number) || (b['id'] as number) - (a['id'] as number);
  if (event['op'] === 'add') state['drafts'] = [...current, ...(event['drafts'] as Row[])].sort(newestFirst);
  if (event['op'] === 'update') {
    const draft = event['draft'] as Row;
    state['drafts'] = current.map((d) => (d['id'] === draft['id'] ? draft : d)).sort(newestFirst);
  }
  if (event['op'] === 'remove') state['drafts'] = current.filter((d) => d['id'] !== event['draft_id']);
}
