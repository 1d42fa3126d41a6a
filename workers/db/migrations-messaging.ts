/**
 * Migrations 1–7: the realm, its people and groups, streams, messages and their search, event
 * queues, stream preferences (workers/db/migrations.ts lists every migration in order).
 */
export const MESSAGING_MIGRATIONS: readonly string[] = [
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
];
