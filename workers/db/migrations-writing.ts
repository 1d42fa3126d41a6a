import type { Migration } from './migrations-caching';

/**
 * Migrations 21–: where writes land (workers/db/migrations.ts lists every migration in order).
 * IF NOT EXISTS: a test replays older migrations on a newer file.
 */
export const WRITING_MIGRATIONS: readonly Migration[] = [
  /* 21: the rows of a message to many people land in a small table first (actors/recent-rows.ts) */ `
  -- user_messages is ordered by person, so in a realm in use each person's newest rows sit on a
  -- page of their own: one message to 5,000 people dirtied 5,000 pages (about 24 MB of WAL at
  -- 4 KiB a page). The rows of such messages go here instead, a table as small as the last
  -- minute's of them, whose pages they share; an actor moves them into user_messages in batches,
  -- a person's page taking a batch of rows at once. A row is in exactly one of the two tables;
  -- every read reads both.
  CREATE TABLE IF NOT EXISTS user_messages_recent (
    user_id INTEGER NOT NULL REFERENCES users(id),
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    flags INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, message_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS user_messages_recent_message ON user_messages_recent(message_id);
  CREATE INDEX IF NOT EXISTS user_messages_recent_unread ON user_messages_recent(user_id, message_id, flags) WHERE flags & 1 = 0;
  `,
];
