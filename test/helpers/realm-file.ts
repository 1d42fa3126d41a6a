import Database from 'better-sqlite3';
import path from 'node:path';
import type { ApiClient } from './http';
import type { TestServer } from './server';

/**
 * Direct access to the default realm's SQLite file of a running server (WAL lets a second
 * connection read and write beside the server's). Test states come through the API; writes here
 * are only for what no endpoint can do: time travel (moving stamps the realm clock wrote) and
 * outside writes a test is about. Reads are for consistency checks.
 */
export class RealmFile {
  private readonly db: Database.Database;

  constructor(server: TestServer, realm = 'default') {
    this.db = new Database(path.join(server.dataDir, 'realms', `${realm}.sqlite3`));
    this.db.pragma('busy_timeout = 5000');
  }

  /**
   * Makes a just-sent message look `seconds` old. A file write by need (time travel): it moves the
   * stamp the realm clock wrote, not one from this process's clock, and no endpoint does.
   */
  backdate(messageId: number, seconds: number): void {
    this.db.prepare('UPDATE messages SET date_sent = date_sent - ? WHERE id = ?').run(seconds, messageId);
  }

  /** The messages of a topic, oldest first. */
  topic(streamId: number, topic: string): { id: number; sender_id: number; content: string; topic: string }[] {
    return this.db
      .prepare('SELECT id, sender_id, content, topic FROM messages WHERE stream_id = ? AND topic = ? ORDER BY id')
      .all(streamId, topic) as { id: number; sender_id: number; content: string; topic: string }[];
  }

  /** One column of one row, for consistency checks. */
  value(sql: string, ...args: (string | number)[]): unknown {
    const row = this.db.prepare(sql).get(...args) as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  /** A write no endpoint can do (time travel, an outside write); say why at the call. */
  run(sql: string, ...args: (string | number)[]): void {
    this.db.prepare(sql).run(...args);
  }

  close(): void {
    this.db.close();
  }
}

/** The ID of a stream by name, through GET /streams. */
export async function streamIdOf(api: ApiClient, name: string): Promise<number> {
  const res = await api.get('/streams', { include_all_active: true });
  const stream = (res.body['streams'] as { name: string; stream_id: number }[] | undefined)?.find((s) => s.name === name);
  if (!stream) throw new Error(`no stream ${name}: ${res.text}`);
  return stream.stream_id;
}

/** Sends a stream message and returns its ID. */
export async function sendToStream(client: ApiClient, stream: string, topic: string, content: string): Promise<number> {
  const res = await client.post('/messages', { type: 'stream', to: stream, topic, content });
  if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
  return res.body['id'] as number;
}
