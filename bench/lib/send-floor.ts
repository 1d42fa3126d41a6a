import { BULK_RECIPIENT_ROWS } from '../../workers/actions/messages';
import { openRealmDb } from '../../workers/db/open';
import { newRowsTable } from '../../workers/queries/user-message-rows';
import { RECENT_ROWS_MIN_RECIPIENTS } from '../../src/wire/protocol';

/** Passes of one way of committing, each in µs a message, and their median. */
export interface FloorPasses {
  microsPerMessage: number;
  passesMicros: number[];
}

export interface SendFloor {
  /** Each commit made durable (an fsync) before the next, as one writer alone would. */
  durable: FloorPasses;
  /**
   * The same writes as the shard's connection makes them (workers/realm.ts): synchronous=NORMAL
   * and no automatic checkpoint, the fsyncs and checkpoints left to other threads, so here run
   * between batches and not timed. The shard thread's own part of a send.
   */
  writes: FloorPasses;
  recipients: number;
}

const PER_COMMIT = 50;
const WARMUP_MESSAGES = 1_000;
const CHECKPOINT_EVERY_COMMITS = 20;

/**
 * The storage floor of a stream send: only the writes each message needs with this schema
 * (its row with its indexes and search-index entry, one row per recipient, each message in its
 * own savepoint as the group commit runs actions, written as the server writes them: many rows
 * with the same flags in one statement, into the table the server writes them to),
 * `PER_COMMIT` messages to a durable commit. Moving rows of a large stream's messages into
 * user_messages later (workers/actors/recent-rows.ts) is not counted: no send waits for it.
 * Timed on the realm file of a stopped benchmark server, which keeps the rows; nothing else a
 * send does (parsing, authentication, rendering, events, the reply) is counted. Timed `passes`
 * times with each commit durable (SQLite's own checkpoints inside), then as many times as the
 * shard's connection writes: within a run the durable passes differed by 2–16%, between runs
 * they went from 92 to 166 µs a message while the server's own rate moved far less.
 */
export function measureSendFloor(file: string, streamName: string, messages = 10_000, passes = 1): SendFloor {
  const db = openRealmDb(file);
  try {
    const stream = db.prepare('SELECT id, recipient_id FROM streams WHERE name = ?').get(streamName) as {
      id: number;
      recipient_id: number;
    };
    const recipients = db
      .prepare('SELECT user_id FROM subscriptions WHERE stream_id = ? AND active = 1')
      .pluck()
      .all(stream.id) as number[];
    const sender = recipients[0] as number;
    const insertMessage = db.prepare(
      `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content,
         rendered_content_version, date_sent, client, is_me_message, topic_links)
       VALUES (?, ?, ?, 'floor', ?, ?, 1, ?, 'API', 0, '[]')`,
    );
    const table = newRowsTable(recipients.length, RECENT_ROWS_MIN_RECIPIENTS);
    const insertUserMessage = db.prepare(`INSERT INTO ${table} (user_id, message_id, flags) VALUES (?, ?, ?)`);
    const insertUserMessages = db.prepare(`INSERT INTO ${table} (user_id, message_id, flags) SELECT value, ?, 0 FROM json_each(?)`);
    const others = recipients.filter((userId) => userId !== sender);
    const savepoint = db.prepare('SAVEPOINT action');
    const release = db.prepare('RELEASE action');
    const content = 'Hello, **world**! How is everyone doing today?';
    const html = '<p>Hello, <strong>world</strong>! How is everyone doing today?</p>';
    const now = Math.floor(Date.now() / 1000);
    const commitBatch = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) {
        savepoint.run();
        const id = Number(insertMessage.run(sender, stream.recipient_id, stream.id, content, html, now).lastInsertRowid);
        insertUserMessage.run(sender, id, 1);
        if (others.length >= BULK_RECIPIENT_ROWS) insertUserMessages.run(id, JSON.stringify(others));
        else for (const userId of others) insertUserMessage.run(userId, id, 0);
        release.run();
      }
    });
    let checkpointApart = false;
    /** Nanoseconds spent committing `count` messages, `PER_COMMIT` to a commit. */
    const send = (count: number): bigint => {
      let spent = 0n;
      for (let sent = 0; sent < count; sent += PER_COMMIT) {
        const started = process.hrtime.bigint();
        commitBatch.immediate(Math.min(PER_COMMIT, count - sent));
        spent += process.hrtime.bigint() - started;
        // Untimed, every 1,000 messages: the WAL stays short, as the server's checkpointer keeps it.
        if (checkpointApart && (sent / PER_COMMIT) % CHECKPOINT_EVERY_COMMITS === 0) db.pragma('wal_checkpoint(PASSIVE)');
      }
      return spent;
    };
    const timed = (): FloorPasses => {
      const passesMicros: number[] = [];
      for (let pass = 0; pass < passes; pass++) passesMicros.push(Number(send(messages)) / 1000 / messages);
      const sorted = [...passesMicros].sort((a, b) => a - b);
      return { microsPerMessage: sorted[Math.floor(sorted.length / 2)] as number, passesMicros };
    };
    send(WARMUP_MESSAGES);
    const durable = timed();
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 0');
    checkpointApart = true;
    const writes = timed();
    return { durable, writes, recipients: recipients.length };
  } finally {
    db.close();
  }
}
