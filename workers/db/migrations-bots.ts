import type { Migration } from './migrations-caching';

/**
 * Migrations for bots' own data, listed last (workers/db/migrations.ts lists every migration
 * in order). IF NOT EXISTS: a test replays older migrations on a newer file.
 */
export const BOT_MIGRATIONS: readonly Migration[] = [
  /* bot storage: each bot's own keys and values (PUT/GET/DELETE /bot_storage) */ `
  -- A rowid table, not WITHOUT ROWID: a value may be megabytes, and rows that large belong
  -- out of the key's B-tree. Sizes are counted in characters, as length() counts TEXT.
  CREATE TABLE IF NOT EXISTS bot_storage (
    id INTEGER PRIMARY KEY,
    bot_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    UNIQUE (bot_id, key)
  ) STRICT;
  `,
];
