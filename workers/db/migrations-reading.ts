import type { Migration } from './migrations-caching';

/**
 * Migrations 17–: reading messages through indexes the query planner picks by itself
 * (workers/db/migrations.ts lists every migration in order).
 */
export const READING_MIGRATIONS: readonly Migration[] = [
  /* 17: fetch: the viewer's unread rows (migration 3) with their flags, so no query has to force the index */ `
  -- With flags in it, user_messages_unread covers every read of unread rows (a range of a
  -- narrow, first_unread, unread_msgs), and SQLite prefers it to the primary key without
  -- INDEXED BY; INDEXED BY failed ("no query solution") when a narrow's WHERE clause folded
  -- to false and no longer implied the index's condition. Dropped and built again: safe to run twice.
  DROP INDEX IF EXISTS user_messages_unread;
  CREATE INDEX user_messages_unread ON user_messages(user_id, message_id, flags) WHERE flags & 1 = 0;
  `,
];
