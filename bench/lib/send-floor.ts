import { BULK_RECIPIENT_ROWS } from '../../workers/actions/messages';
import { openRealmDb } from '../../workers/db/open';

export interface SendFloor {
  /** The median pass's time a message. */
  microsPerMessage: number;
  /** Every pass's, in the order timed: each pays its commits' fsyncs, which vary run to run. */
  passesMicros: number[];
  recipients: number;
}

const PER_COMMIT = 50;
const WARMUP_MESSAGES = 1_000;

/**
 * The storage floor of a stream send: only the writes each message needs with this schema
 * (its row with its indexes and search-index entry, one row per recipient, each message in its
 * own savepoint as the group commit runs actions, written as the server writes them: many rows
 * with the same flags in one statement), `PER_COMMIT` messages to a durable commit.
 * Timed on the realm file of a stopped benchmark server, which keeps the rows; nothing else a
 * send does (parsing, authentication, rendering, events, the reply) is counted, `passes` times
 * over (each pays its own commits' fsyncs).
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
    const insertUserMessage = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
    const insertUserMessages = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) SELECT value, ?, 0 FROM json_each(?)');
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
    const send = (count: number): void => {
      for (let sent = 0; sent < count; sent += PER_COMMIT) commitBatch.immediate(Math.min(PER_COMMIT, count - sent));
    };
    send(WARMUP_MESSAGES);
    const passesMicros: number[] = [];
    for (let pass = 0; pass < passes; pass++) {
      const started = process.hrtime.bigint();
      send(messages);
      passesMicros.push(Number(process.hrtime.bigint() - started) / 1000 / messages);
    }
    const sorted = [...passesMicros].sort((a, b) => a - b);
    return { microsPerMessage: sorted[Math.floor(sorted.length / 2)] as number, passesMicros, recipients: recipients.length };
  } finally {
    db.close();
  }
}
