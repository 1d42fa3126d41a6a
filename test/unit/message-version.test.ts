import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { openRealmDb } from '../../workers/db/open';

// Migration 16: the version that the shard's message cache (queries/message-json.ts) checks.
t.test('a message version moves with every change to the message or its reactions', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-version-'));
  const file = path.join(dir, 'realm.sqlite3');
  let db = openRealmDb(file, { create: true });
  t.teardown(() => db.close());
  // The row only has to exist: its sender, recipient and stream need not.
  db.pragma('foreign_keys = OFF');
  db.prepare(
    `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, content, rendered_content, rendered_content_version, date_sent, client)
     VALUES (7, 1, 2, 3, 'topic', 'raw', '<p>raw</p>', 1, 1700000000, 'test')`,
  ).run();
  const version = (): number => db.prepare('SELECT version FROM messages WHERE id = 7').pluck().get() as number;
  t.equal(version(), 0, 'a new message');
  db.prepare("UPDATE messages SET content = 'edited', rendered_content = '<p>edited</p>' WHERE id = 7").run();
  t.equal(version(), 1, 'an edit, one step however many columns it sets');
  db.prepare("UPDATE messages SET topic = 'moved' WHERE id = 7").run();
  t.equal(version(), 2, 'a move');
  db.prepare(
    "INSERT INTO reactions (id, message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (1, 7, 1, 'smile', '1f604', 'unicode_emoji')",
  ).run();
  t.equal(version(), 3, 'a reaction added');
  db.prepare("UPDATE reactions SET emoji_name = 'smiley' WHERE id = 1").run();
  t.equal(version(), 4, 'a reaction changed');
  db.prepare('DELETE FROM reactions WHERE id = 1').run();
  t.equal(version(), 5, 'a reaction removed');

  t.test('running the migration again changes nothing', async (t) => {
    // Migration 16 and every later one run again (17 rebuilds user_messages_unread).
    db.pragma('user_version = 16');
    db.close();
    db = openRealmDb(file);
    t.equal(version(), 5);
    const columns = db.prepare("SELECT name FROM pragma_table_info('messages') WHERE name = 'version'").all();
    t.equal(columns.length, 1, 'one version column');
    for (const index of ['messages_stream_topic', 'messages_stream_id']) {
      const indexed = db.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(index);
      t.equal(indexed[indexed.length - 1], 'version', `${index} ends with the version`);
    }
    const unreadIndexed = db.prepare("SELECT name FROM pragma_index_info('user_messages_unread')").pluck().all();
    t.strictSame(unreadIndexed, ['user_id', 'message_id', 'flags'], 'user_messages_unread holds the flags');
    db.prepare("UPDATE messages SET content = 'again' WHERE id = 7").run();
    t.equal(version(), 6, 'the trigger still fires once');
  });
});
