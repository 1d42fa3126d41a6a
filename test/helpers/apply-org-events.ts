/**
 * The reducer's cases for status, presence, settings and realm events (api-notes §d),
 * called from apply-events.ts. Written for the api-notes shapes.
 */
type Row = Record<string, unknown>;

/** user_status: only the fields that changed; empty text or emoji name clears them. */
export function applyUserStatus(state: Row, event: Row): void {
  if (!('user_status' in state)) return;
  const all = state['user_status'] as Record<string, Row>;
  const key = String(event['user_id']);
  const status: Row = { ...(all[key] ?? {}) };
  if (event['away'] === true) status['away'] = true;
  if (event['away'] === false) delete status['away'];
  if (typeof event['status_text'] === 'string') {
    if (event['status_text'] === '') delete status['status_text'];
    else status['status_text'] = event['status_text'];
  }
  if (typeof event['emoji_name'] === 'string') {
    for (const field of ['emoji_name', 'emoji_code', 'reaction_type']) {
      if (event['emoji_name'] === '') delete status[field];
      else status[field] = event[field];
    }
  }
  if (Object.keys(status).length === 0) delete all[key];
  else all[key] = status;
}

/** realm update / update_dict: the `realm_<name>` keys of register. */
export function applyRealm(state: Row, event: Row): void {
  if (event['op'] === 'update') state[`realm_${String(event['property'])}`] = event['value'];
  if (event['op'] === 'update_dict' && event['property'] === 'default') {
    for (const [name, value] of Object.entries(event['data'] as Row)) {
      state[`realm_${name}`] = value;
      // Clients derive these from the methods (the public server's apply_event does the same).
      if (name === 'authentication_methods') {
        const methods = value as Record<string, boolean>;
        state['realm_email_auth_enabled'] = methods['Email'] === true;
        state['realm_password_auth_enabled'] = methods['Email'] === true || methods['LDAP'] === true;
      }
    }
  }
}

export function applyRealmUserSettingsDefaults(state: Row, event: Row): void {
  if (!('realm_user_settings_defaults' in state)) return;
  (state['realm_user_settings_defaults'] as Row)[event['property'] as string] = event['value'];
}

/** presence (legacy `presences`, keyed by email): the client's entry, and the aggregate from it. */
export function applyPresence(state: Row, event: Row): void {
  if (!('presences' in state)) return;
  const presences = state['presences'] as Record<string, Row>;
  const email = event['email'] as string;
  const entry: Row = { ...(presences[email] ?? {}) };
  for (const [client, info] of Object.entries(event['presence'] as Record<string, Row>)) {
    entry[client] = info;
    entry['aggregated'] = { client: info['client'], status: info['status'], timestamp: info['timestamp'] };
  }
  presences[email] = entry;
}
