/**
 * Migrations 8–15: people and the organization — accounts, bots, settings, groups, profile
 * fields, files, status and presence, the web page's sign-in sessions (workers/db/migrations.ts lists every migration in order).
 */
export const PEOPLE_MIGRATIONS: readonly string[] = [
  /* 8: legacy: the reading pointer that zulip-js still offers (GET/POST /users/me/pointer) */ `
  -- Its own table, not a users column: moving it must not bump the users cache version.
  CREATE TABLE user_pointers (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    message_id INTEGER NOT NULL
  ) STRICT;
  `,
  /* 9: people: pending email changes awaiting their confirmation link (SPEC PATCH /settings email) */ `
  CREATE TABLE email_changes (
    token TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    new_email TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX email_changes_user ON email_changes(user_id);
  `,
  /* 10: accounts: muted users (POST /users/me/muted_users), bots' settings and services (POST /bots) */ `
  CREATE TABLE muted_users (
    user_id INTEGER NOT NULL REFERENCES users(id),
    muted_user_id INTEGER NOT NULL REFERENCES users(id),
    date_muted INTEGER NOT NULL,
    PRIMARY KEY (user_id, muted_user_id)
  ) STRICT, WITHOUT ROWID;
  -- Sending a message asks who muted its sender.
  CREATE INDEX muted_users_by_muted ON muted_users(muted_user_id);
  -- One row per bot: its default streams and, for outgoing-webhook and embedded bots, its service.
  CREATE TABLE bot_settings (
    bot_id INTEGER PRIMARY KEY REFERENCES users(id),
    default_sending_stream_id INTEGER REFERENCES streams(id),
    default_events_register_stream_id INTEGER REFERENCES streams(id),
    default_all_public_streams INTEGER NOT NULL DEFAULT 0,
    service_name TEXT,
    service_base_url TEXT,
    service_interface INTEGER,
    service_token TEXT,
    config_data TEXT NOT NULL DEFAULT '{}'
  ) STRICT;
  -- A user's bots (GET /bots, deactivation cascades to them).
  CREATE INDEX users_bot_owner ON users(bot_owner_id) WHERE bot_owner_id IS NOT NULL;
  -- Role checks count the active owners.
  CREATE INDEX users_role ON users(role, is_active);
  -- realm_bots for administrators lists every bot.
  CREATE INDEX users_bots ON users(id) WHERE is_bot = 1;
  -- A bot's name must be free among the active accounts.
  CREATE INDEX users_full_name ON users(full_name);
  `,
  /* 11: groups: subgroup lookups by member group; custom profile fields and values; code playgrounds; drafts */ `
  -- Cycle checks and group deletion read a group's supergroups.
  CREATE INDEX user_group_subgroups_subgroup ON user_group_subgroups(subgroup_id);

  CREATE TABLE custom_profile_fields (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type INTEGER NOT NULL,
    name TEXT NOT NULL,
    hint TEXT NOT NULL DEFAULT '',
    field_data TEXT NOT NULL DEFAULT '',
    display_in_profile_summary INTEGER NOT NULL DEFAULT 0,
    sort_order INTEGER NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX custom_profile_fields_name ON custom_profile_fields(name COLLATE NOCASE);
  -- Display order (listing, and the next position), and the few shown in the profile summary.
  CREATE INDEX custom_profile_fields_order ON custom_profile_fields(sort_order, id);
  CREATE INDEX custom_profile_fields_summary ON custom_profile_fields(id) WHERE display_in_profile_summary = 1;
  CREATE TABLE custom_profile_field_values (
    user_id INTEGER NOT NULL REFERENCES users(id),
    field_id INTEGER NOT NULL REFERENCES custom_profile_fields(id) ON DELETE CASCADE,
    value TEXT NOT NULL,
    rendered_value TEXT,
    PRIMARY KEY (user_id, field_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX custom_profile_field_values_field ON custom_profile_field_values(field_id);

  CREATE TABLE realm_playgrounds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    lexer_language TEXT NOT NULL,
    url_prefix TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX realm_playgrounds_name ON realm_playgrounds(name, lexer_language);

  -- api-notes §e drafts: a user's synced drafts, newest first.
  CREATE TABLE drafts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    type TEXT NOT NULL,              -- 'stream', 'private' or '' (not yet addressed)
    to_ids TEXT NOT NULL,            -- JSON list: [stream ID] or the recipients' user IDs
    topic TEXT NOT NULL,
    content TEXT NOT NULL,
    last_edit_time INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX drafts_user ON drafts(user_id, last_edit_time);
  `,
  /* 12: files: uploads and their bytes inside the realm file, message links, avatars' source, emoji images */ `
  -- SPEC States "Attachment". The bytes live in this file (a copy of it is a complete backup),
  -- in chunks so that a range request reads only the chunks it needs.
  CREATE TABLE attachments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path_id TEXT NOT NULL,            -- <realm_id>/<2 hex>/<random>/<name> (api-notes GET /attachments)
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    create_time INTEGER NOT NULL      -- milliseconds (api-notes Summary 17)
  ) STRICT;
  CREATE UNIQUE INDEX attachments_path ON attachments(path_id);
  CREATE INDEX attachments_owner ON attachments(owner_id, id);
  CREATE INDEX attachments_created ON attachments(create_time);
  CREATE TABLE attachment_chunks (
    attachment_id INTEGER NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (attachment_id, seq)
  ) STRICT, WITHOUT ROWID;
  -- Which messages link which uploads: readers of a linking message may fetch the file.
  CREATE TABLE attachment_messages (
    attachment_id INTEGER NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    PRIMARY KEY (attachment_id, message_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX attachment_messages_message ON attachment_messages(message_id);
  -- Avatars and emoji images: small, size-limited, one blob each; key e.g. 'avatar/<user id>'.
  CREATE TABLE images (
    key TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL
  ) STRICT;
  -- 'G': the external provider's picture for the email; 'U': uploaded (api-notes §d realm_user).
  ALTER TABLE users ADD COLUMN avatar_source TEXT NOT NULL DEFAULT 'G';
  `,
  /* 13: org: user status (SPEC User status) and presence flushed from the shard's memory */ `
  -- One row per user who ever set a status; an empty text and emoji name mean "none".
  CREATE TABLE user_status (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    status_text TEXT NOT NULL DEFAULT '',
    emoji_name TEXT NOT NULL DEFAULT '',
    emoji_code TEXT NOT NULL DEFAULT '',
    reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji',
    timestamp INTEGER NOT NULL
  ) STRICT;
  -- The presence actor's periodic flush: seconds of the last ping and of the last active one.
  CREATE TABLE user_presence (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    last_connected_time INTEGER NOT NULL,
    last_active_time INTEGER
  ) STRICT;
  `,
  /* 14: fullmembers: existing members past the waiting period join `@role:fullmembers` */ `
  -- The rule of actions/full-members.ts: direct members of @role:members whose account is at
  -- least the realm's waiting_period_threshold days old (default 0, queries/realm-settings).
  INSERT OR IGNORE INTO user_group_members (group_id, user_id)
  SELECT f.id, m.user_id
  FROM user_groups f
  JOIN user_groups g ON g.name = '@role:members' COLLATE NOCASE AND g.is_system_group = 1
  JOIN user_group_members m ON m.group_id = g.id
  JOIN users u ON u.id = m.user_id
  WHERE f.name = '@role:fullmembers' COLLATE NOCASE AND f.is_system_group = 1
    AND u.date_joined <= CAST(strftime('%s', 'now') AS INTEGER)
      - COALESCE((SELECT json_extract(settings, '$.waiting_period_threshold') FROM realm WHERE id = 1), 0) * 86400;
  `,
  /* 15: the web page's sign-in sessions (POST /login), kept across restarts */ `
  -- Only the token's SHA-256 (hex) is stored: a copy of this file does not sign anyone in.
  -- IF NOT EXISTS: a test replays migration 14 on a newer file, so the ones after it run again.
  CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created INTEGER NOT NULL,         -- milliseconds
    last_seen INTEGER NOT NULL        -- milliseconds; refreshed at most hourly (actions/sessions.ts)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
  `,
];
