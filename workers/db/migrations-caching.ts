import type Database from 'better-sqlite3';

/** A step of the schema: SQL, or code for a step SQL cannot make safe to run twice. */
export type Migration = string | ((db: Database.Database) => void);

/** The stream narrows' indexes (migrations 0 and 4) with the version appended. */
const VERSIONED_INDEXES: Readonly<Record<string, string>> = {
  messages_stream_topic: 'stream_id, topic COLLATE NOCASE, id, version',
  messages_stream_id: 'stream_id, id, version',
};

/**
 * Migrations 16–: what lets shards cache derived data in memory and still never serve it stale
 * (workers/db/migrations.ts lists every migration in order).
 */
export const CACHING_MIGRATIONS: readonly Migration[] = [
  /* 16: fetch: a version per message, for the shard's cache of message objects (queries/message-json.ts) */ (db) => {
    // Code, not SQL: a test replays older migrations on a newer file, and ADD COLUMN has no
    // IF NOT EXISTS. Adding a column with a default rewrites no rows, even on a big realm.
    const columns = db.prepare<[], string>("SELECT name FROM pragma_table_info('messages')").pluck().all();
    if (!columns.includes('version')) db.exec('ALTER TABLE messages ADD COLUMN version INTEGER NOT NULL DEFAULT 0');
    // A page of a stream's or a topic's history then reads IDs and versions from its index
    // alone (measured on a million messages: 115 → 94 µs for 100 rows of a topic).
    for (const [index, indexColumns] of Object.entries(VERSIONED_INDEXES)) {
      const hasVersion = db.prepare("SELECT 1 FROM pragma_index_info(?) WHERE name = 'version'").get(index) !== undefined;
      if (!hasVersion) db.exec(`DROP INDEX IF EXISTS ${index}; CREATE INDEX ${index} ON messages(${indexColumns});`);
    }
    db.exec(`
    -- Every change to a message row, or to its reactions, moves its version on; the rest of
    -- what a message object shows (senders, streams) is behind cache_version (migration 1).
    -- The trigger's own UPDATE changes the version, so its WHEN stops it from firing again.
    CREATE TRIGGER IF NOT EXISTS messages_update_version AFTER UPDATE ON messages WHEN new.version = old.version
      BEGIN UPDATE messages SET version = old.version + 1 WHERE id = new.id; END;
    CREATE TRIGGER IF NOT EXISTS reactions_insert_message_version AFTER INSERT ON reactions
      BEGIN UPDATE messages SET version = version + 1 WHERE id = new.message_id; END;
    CREATE TRIGGER IF NOT EXISTS reactions_delete_message_version AFTER DELETE ON reactions
      BEGIN UPDATE messages SET version = version + 1 WHERE id = old.message_id; END;
    CREATE TRIGGER IF NOT EXISTS reactions_update_message_version AFTER UPDATE ON reactions
      BEGIN UPDATE messages SET version = version + 1 WHERE id IN (old.message_id, new.message_id); END;
    `);
  },
];

/**
 * Migrations after the bots' (workers/db/migrations.ts lists them last): more tables whose rows
 * shards now cache move cache_version on.
 */
export const LATER_CACHING_MIGRATIONS: readonly Migration[] = [
  /* 19: subscribers and realm settings cached (queries/streams.ts, queries/realm-settings.ts) */ `
  -- Who is subscribed changes with a row's insert, delete or active flag; a subscription's
  -- own settings (color, muting, pinning) leave every cache as it was.
  CREATE TRIGGER IF NOT EXISTS subscriptions_insert_cache_version AFTER INSERT ON subscriptions
    BEGIN UPDATE cache_version SET version = version + 1; END;
  CREATE TRIGGER IF NOT EXISTS subscriptions_delete_cache_version AFTER DELETE ON subscriptions
    BEGIN UPDATE cache_version SET version = version + 1; END;
  CREATE TRIGGER IF NOT EXISTS subscriptions_active_cache_version AFTER UPDATE OF active ON subscriptions
    WHEN new.active IS NOT old.active
    BEGIN UPDATE cache_version SET version = version + 1; END;
  CREATE TRIGGER IF NOT EXISTS realm_update_cache_version AFTER UPDATE ON realm
    BEGIN UPDATE cache_version SET version = version + 1; END;
  `,
  /* 20: register's realm_users kept whole, profile data included (queries/register-users-json.ts) */ `
  ${['custom_profile_fields', 'custom_profile_field_values']
    .flatMap((table) =>
      ['INSERT', 'UPDATE', 'DELETE'].map(
        (op) => `CREATE TRIGGER IF NOT EXISTS ${table}_${op.toLowerCase()}_cache_version AFTER ${op} ON ${table}
          BEGIN UPDATE cache_version SET version = version + 1; END;`,
      ),
    )
    .join('\n')}
  `,
];
