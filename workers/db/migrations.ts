/**
 * Schema migrations, applied in order by db/open.ts; `PRAGMA user_version` is the number of
 * migrations applied. Never edit a released migration: append a new one.
 * Timestamps are UNIX seconds (SPEC §Wire conventions 6) unless a column says otherwise.
 */
export const MIGRATIONS: readonly string[] = [
  /* 1: the first slice */ `
  CREATE TABLE realm (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    string_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    date_created INTEGER NOT NULL,
    deactivated INTEGER NOT NULL DEFAULT 0,
    -- where the notification bot announces new streams; null: nowhere
    notifications_stream_id INTEGER,
    -- realm settings not yet in their own columns, as one JSON object
    settings TEXT NOT NULL DEFAULT '{}'
  ) STRICT;

  CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL,              -- the API email
    delivery_email TEXT NOT NULL,     -- the real email
    full_name TEXT NOT NULL,
    api_key TEXT NOT NULL,
    password_hash TEXT,               -- null: no password login
    role INTEGER NOT NULL,
    is_active INTEGER NOT NULL DEFAULT 1,
    is_bot INTEGER NOT NULL DEFAULT 0,
    bot_type INTEGER,
    bot_owner_id INTEGER REFERENCES users(id),
    is_billing_admin INTEGER NOT NULL DEFAULT 0,
    timezone TEXT NOT NULL DEFAULT '',
    date_joined INTEGER NOT NULL,
    avatar_version INTEGER NOT NULL DEFAULT 1,
    -- the server's own bots (the notification bot): not people, not listed with the users
    is_system_bot INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL DEFAULT '{}'
  ) STRICT;
  CREATE UNIQUE INDEX users_email ON users(email COLLATE NOCASE);
  CREATE UNIQUE INDEX users_delivery_email ON users(delivery_email COLLATE NOCASE);
  CREATE UNIQUE INDEX users_api_key ON users(api_key);

  CREATE TABLE user_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    is_system_group INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE UNIQUE INDEX user_groups_name ON user_groups(name COLLATE NOCASE);

  CREATE TABLE user_group_members (
    group_id INTEGER NOT NULL REFERENCES user_groups(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (group_id, user_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE user_group_subgroups (
    group_id INTEGER NOT NULL REFERENCES user_groups(id),
    subgroup_id INTEGER NOT NULL REFERENCES user_groups(id),
    PRIMARY KEY (group_id, subgroup_id)
  ) STRICT, WITHOUT ROWID;

  -- A recipient is a stream or a direct conversation (a set of users), SPEC Message.recipient_id.
  CREATE TABLE recipients (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind INTEGER NOT NULL,            -- 2 stream, 3 direct conversation
    direct_key TEXT UNIQUE            -- sorted member ids, comma separated; null for streams
  ) STRICT;

  CREATE TABLE streams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    recipient_id INTEGER NOT NULL REFERENCES recipients(id),
    description TEXT NOT NULL DEFAULT '',
    rendered_description TEXT NOT NULL DEFAULT '',
    date_created INTEGER NOT NULL,
    invite_only INTEGER NOT NULL DEFAULT 0,
    is_web_public INTEGER NOT NULL DEFAULT 0,
    stream_post_policy INTEGER NOT NULL DEFAULT 1,
    message_retention_days INTEGER,
    history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
    first_message_id INTEGER,
    can_remove_subscribers_group_id INTEGER NOT NULL REFERENCES user_groups(id),
    is_default INTEGER NOT NULL DEFAULT 0,
    deactivated INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE UNIQUE INDEX streams_name ON streams(name COLLATE NOCASE);

  CREATE TABLE subscriptions (
    user_id INTEGER NOT NULL REFERENCES users(id),
    stream_id INTEGER NOT NULL REFERENCES streams(id),
    active INTEGER NOT NULL DEFAULT 1,
    color TEXT NOT NULL,
    is_muted INTEGER NOT NULL DEFAULT 0,
    pin_to_top INTEGER NOT NULL DEFAULT 0,
    -- null: inherit the user's global setting
    desktop_notifications INTEGER,
    audible_notifications INTEGER,
    push_notifications INTEGER,
    email_notifications INTEGER,
    wildcard_mentions_notify INTEGER,
    PRIMARY KEY (user_id, stream_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX subscriptions_stream ON subscriptions(stream_id, user_id);

  -- AUTOINCREMENT: IDs grow in send order and are never reused after a deletion.
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sender_id INTEGER NOT NULL REFERENCES users(id),
    recipient_id INTEGER NOT NULL REFERENCES recipients(id),
    stream_id INTEGER REFERENCES streams(id),
    topic TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    rendered_content TEXT NOT NULL,
    rendered_content_version INTEGER NOT NULL,
    date_sent INTEGER NOT NULL,
    client TEXT NOT NULL,
    is_me_message INTEGER NOT NULL DEFAULT 0,
    topic_links TEXT NOT NULL DEFAULT '[]',
    last_edit_timestamp INTEGER,
    edit_history TEXT                 -- JSON list, most recent edit first
  ) STRICT;
  CREATE INDEX messages_stream_topic ON messages(stream_id, topic COLLATE NOCASE, id);
  CREATE INDEX messages_recipient ON messages(recipient_id, id);

  CREATE TABLE user_messages (
    user_id INTEGER NOT NULL REFERENCES users(id),
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    flags INTEGER NOT NULL DEFAULT 0, -- bit set, see workers/lib/flags.ts
    PRIMARY KEY (user_id, message_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX user_messages_message ON user_messages(message_id);

  CREATE TABLE reactions (
    id INTEGER PRIMARY KEY,           -- insertion order is display order
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    emoji_name TEXT NOT NULL,
    emoji_code TEXT NOT NULL,
    reaction_type TEXT NOT NULL,
    UNIQUE (message_id, user_id, reaction_type, emoji_code)
  ) STRICT;

  -- Realm linkifiers: a regular expression and an RFC 6570 URL template.
  CREATE TABLE linkifiers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pattern TEXT NOT NULL,
    url_template TEXT NOT NULL
  ) STRICT;

  CREATE TABLE alert_words (
    id INTEGER PRIMARY KEY,           -- insertion order is list order
    user_id INTEGER NOT NULL REFERENCES users(id),
    word TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX alert_words_user_word ON alert_words(user_id, word COLLATE NOCASE);

  CREATE TABLE realm_emoji (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    file_name TEXT NOT NULL,
    author_id INTEGER REFERENCES users(id),
    deactivated INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  -- Shards cache rows of these tables in memory (the render context: users, groups, streams,
  -- emoji, linkifiers, alert words; and users for authentication). Every change to them bumps
  -- this counter, so a cache is never stale, however the change was made.
  CREATE TABLE cache_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
  ) STRICT;
  INSERT INTO cache_version (id, version) VALUES (1, 0);
  ${['users', 'streams', 'user_groups', 'user_group_members', 'user_group_subgroups', 'linkifiers', 'alert_words', 'realm_emoji']
    .flatMap((table) =>
      ['INSERT', 'UPDATE', 'DELETE'].map(
        (op) => `CREATE TRIGGER ${table}_${op.toLowerCase()}_cache_version AFTER ${op} ON ${table}
          BEGIN UPDATE cache_version SET version = version + 1; END;`,
      ),
    )
    .join('\n')}
  `,
  /* 2: scheduled: scheduled messages (SPEC POST /scheduled_messages, States "Scheduled message") */ `
  CREATE TABLE scheduled_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, -- scheduled_message_id; never the sent message's ID
    sender_id INTEGER NOT NULL REFERENCES users(id),
    recipient_kind INTEGER NOT NULL,      -- 2 stream, 3 direct (as recipients.kind)
    stream_id INTEGER REFERENCES streams(id),
    direct_to TEXT,                       -- JSON list of the other members' IDs, as GET shows them in "to"
    topic TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    rendered_content TEXT NOT NULL,
    scheduled_timestamp INTEGER NOT NULL,
    client TEXT NOT NULL,
    date_created INTEGER NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0,
    delivered_message_id INTEGER REFERENCES messages(id),
    failed INTEGER NOT NULL DEFAULT 0,    -- the public API's "failed": sending was tried and refused
    failure_message TEXT
  ) STRICT;
  -- The delivery actor's one question: the earliest pending due time.
  CREATE INDEX scheduled_messages_due ON scheduled_messages(scheduled_timestamp) WHERE delivered = 0 AND failed = 0;
  -- GET /scheduled_messages: a user's undelivered ones (failed included), by due time.
  CREATE INDEX scheduled_messages_sender ON scheduled_messages(sender_id, scheduled_timestamp) WHERE delivered = 0;
  `,
  /* 3: reactions: unread messages of a user by index (mark-as-read endpoints, first_unread, is:unread; workers/lib/flags.ts: read is bit 1) */ `
  CREATE INDEX user_messages_unread ON user_messages(user_id, message_id) WHERE flags & 1 = 0;
  `,
  /* 4: fetch: indexes for narrows, and full-text search over message text and topic */ `
  -- A stream narrow without a topic reads messages by ID within the stream (GET /messages).
  CREATE INDEX messages_stream_id ON messages(stream_id, id);
  CREATE INDEX messages_sender ON messages(sender_id, id);
  -- first_unread and is:unread read only the unread rows of one user (api-notes §c first_unread)
  -- through user_messages_unread (migration 3).

  -- External content: the text lives in messages; triggers keep the index in step.
  -- unicode61 with remove_diacritics 2: case- and accent-insensitive search.
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, topic, content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, content, topic) VALUES (new.id, new.content, new.topic);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content, topic) VALUES ('delete', old.id, old.content, old.topic);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, topic ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, content, topic) VALUES ('delete', old.id, old.content, old.topic);
    INSERT INTO messages_fts (rowid, content, topic) VALUES (new.id, new.content, new.topic);
  END;
  `,
  /* 5: events: event queues saved by a graceful stop and reloaded at start (workers/events/clients.ts) */ `
  -- One row per queue; the state (options, counters, unacknowledged events) is JSON. Rows are
  -- read and deleted in one transaction at start, so after a crash no stale queue comes back.
  CREATE TABLE saved_event_queues (
    queue_id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    state TEXT NOT NULL
  ) STRICT;
  `,
  /* 6: stream-prefs: per-user topic visibility policies (SPEC Topic visibility policy, POST /user_topics); indexes for default streams and retention */ `
  -- Only policies 1 (muted) and 2 (unmuted) are stored; 0 deletes the row. Topics compare
  -- without case, as messages' topics do.
  CREATE TABLE user_topics (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    stream_id INTEGER NOT NULL REFERENCES streams(id),
    topic TEXT NOT NULL COLLATE NOCASE,
    visibility_policy INTEGER NOT NULL,
    last_updated INTEGER NOT NULL,
    PRIMARY KEY (user_id, stream_id, topic)
  ) STRICT, WITHOUT ROWID;
  -- The default streams (register, new users) read through this small partial index.
  CREATE INDEX streams_default ON streams(id) WHERE is_default = 1;
  -- The retention actor reads each stream's messages older than a cutoff, oldest first.
  CREATE INDEX messages_retention ON messages(recipient_id, date_sent);
  `,
  /* 7: stream-prefs: default stream groups (api-notes §a /default_stream_groups) */ `
  CREATE TABLE default_stream_groups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT ''
  ) STRICT;
  CREATE UNIQUE INDEX default_stream_groups_name ON default_stream_groups(name COLLATE NOCASE);
  CREATE TABLE default_stream_group_streams (
    group_id INTEGER NOT NULL REFERENCES default_stream_groups(id) ON DELETE CASCADE,
    stream_id INTEGER NOT NULL REFERENCES streams(id),
    PRIMARY KEY (group_id, stream_id)
  ) STRICT, WITHOUT ROWID;
  `,
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
  /* 14: i9-fullmembers: existing members past the waiting period join `@role:fullmembers` */ `
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
];
