import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { realmFile } from '../../src/wire/realm-names';
import { basicAuth } from './api';
import { seededRealmDir } from './seed-users';

/** One simulated person of the `mixed` scenario. */
export interface Person {
  id: number;
  auth: string;
  /** The streams they are in, the all-hands stream first. */
  streamIds: number[];
}

export interface PeopleRealm {
  dataDir: string;
  people: Person[];
  /** Each stream's members, by stream ID. */
  members: Map<number, number[]>;
  allHandsId: number;
}

export const TEAM_STREAMS_EACH = 5;
/** The topics people read and write in each stream (bench/lib/mixed-crowd.ts). */
export const TOPICS_PER_STREAM = 5;
const PEOPLE_PER_TEAM_STREAM = 20;
// Stream j of the team streams weighs 1/(j+1)^SKEW: a few large streams, many small ones.
const SKEW = 0.9;

/** A reproducible sequence (the same realm on every seeding), not Math.random. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (state / 0x80000000) * n;
  };
}

/**
 * The `mixed` scenario's realm of `count` people: one all-hands stream everyone is in and
 * count/20 team streams of skewed sizes, each person in TEAM_STREAMS_EACH of them. Seeded by
 * bulk insert (bench/lib/seed-users.ts) and kept between runs.
 */
export async function seededPeople(count: number, history = 0): Promise<PeopleRealm> {
  const dirName = `teamchat-bench-mixed-${count}${history > 0 ? `-history-${history}` : ''}`;
  const dataDir = await seededRealmDir(dirName, count, 'person', streamsOfPeople(count, history), SEED_VERSION);
  return loadPeople(dataDir);
}

/**
 * A copy of the seeded realm for one run to write to, so the messages and queues of earlier
 * runs do not pile up in the file (they made every run heavier than the last); without the
 * queues a graceful stop saved, which would be restored and sit idle for ten minutes.
 */
export function runCopyOf(realm: PeopleRealm): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-people-run-'));
  fs.cpSync(realm.dataDir, dataDir, { recursive: true });
  const db = new Database(realmFile(dataDir, 'default'));
  try {
    db.prepare('DELETE FROM saved_event_queues').run();
  } finally {
    db.close();
  }
  return dataDir;
}

/**
 * The streams, their members and a first message in each (seededPeople); with `history`,
 * about that many earlier messages each person has received (and read).
 */
function streamsOfPeople(count: number, history: number): (db: Database.Database, memberIds: number[]) => void {
  const teamStreams = Math.max(TEAM_STREAMS_EACH, Math.round(count / PEOPLE_PER_TEAM_STREAM));
  return (db, memberIds) => {
    const groupId = (db.prepare('SELECT id FROM user_groups ORDER BY id LIMIT 1').get() as { id: number }).id;
    const owner = (db.prepare('SELECT id FROM users WHERE role = 100 ORDER BY id LIMIT 1').get() as { id: number }).id;
    const everyone = [owner, ...memberIds];
    const insertRecipient = db.prepare('INSERT INTO recipients (kind) VALUES (2)');
    const insertStream = db.prepare(
      'INSERT INTO streams (name, recipient_id, date_created, can_remove_subscribers_group_id) VALUES (?, ?, ?, ?)',
    );
    const subscribe = db.prepare(`INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')`);
    const createStream = (name: string): number =>
      Number(insertStream.run(name, Number(insertRecipient.run().lastInsertRowid), Math.floor(Date.now() / 1000), groupId).lastInsertRowid);
    const allHands = createStream('all hands');
    for (const userId of everyone) subscribe.run(userId, allHands);
    const teams = Array.from({ length: teamStreams }, (_, j) => createStream(`team ${j}`));
    const weights = teams.map((_, j) => 1 / Math.pow(j + 1, SKEW));
    const total = weights.reduce((a, b) => a + b, 0);
    const random = generator(count);
    const pick = (): number => {
      let r = random(total);
      for (const [j, weight] of weights.entries()) if ((r -= weight) < 0) return teams[j] as number;
      return teams[teams.length - 1] as number;
    };
    const membersOf = new Map<number, number[]>([[allHands, everyone]]);
    for (const userId of everyone) {
      const chosen = new Set<number>();
      while (chosen.size < TEAM_STREAMS_EACH) chosen.add(pick());
      for (const streamId of chosen) {
        subscribe.run(userId, streamId);
        let members = membersOf.get(streamId);
        if (!members) membersOf.set(streamId, (members = []));
        members.push(userId);
      }
    }
    welcomeEveryStream(db, owner, membersOf);
    if (history > 0) addHistory(db, owner, membersOf, allHands, Math.ceil(history / TEAM_STREAMS_EACH));
  };
}

const HISTORY_SPEAKERS = 10;

/**
 * `rounds` earlier messages in each team stream, read by its members, written one message at a
 * time in the order a realm in use wrote them: a person's rows then end on a page of their own
 * in each person-ordered index, as in production, where a bulk load in key order would pack
 * them (and a new message's rows would not land as they do).
 */
function addHistory(
  db: Database.Database,
  owner: number,
  membersOf: ReadonlyMap<number, readonly number[]>,
  allHands: number,
  rounds: number,
): void {
  const insertMessage = db.prepare(
    `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content,
       rendered_content_version, date_sent, client, is_me_message, topic_links)
     SELECT ?, recipient_id, id, ?, ?, ?, 1, ?, 'bench', 0, '[]' FROM streams WHERE id = ?`,
  );
  const insertRows = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) SELECT value, ?, 1 FROM json_each(?)');
  const teams = [...membersOf].filter(([streamId]) => streamId !== allHands);
  const memberLists = new Map(teams.map(([streamId, members]) => [streamId, JSON.stringify(members)]));
  const start = Math.floor(Date.now() / 1000) - rounds * 60;
  for (let round = 0; round < rounds; round++) {
    for (const [n, [streamId, members]] of teams.entries()) {
      // A topic's conversation is among a few people: the stream's first ten members take turns.
      const sender = members[round % Math.min(members.length, HISTORY_SPEAKERS)] ?? owner;
      const topic = `topic ${(round + n) % TOPICS_PER_STREAM}`;
      const content = `earlier message ${round} about the plan for this week`;
      const id = Number(insertMessage.run(sender, topic, content, `<p>${content}</p>`, start + round * 60, streamId).lastInsertRowid);
      insertRows.run(id, memberLists.get(streamId));
    }
  }
}

// 2: every stream starts with a message (an organization in use). Without one, each stream's
// first message during a run set its first_message_id, which moves cache_version and empties
// every versioned cache (the accounts of 5,000 people among them): 17 times in a 20 s run of
// 1,000 people, none of which a realm in use would see.
// 3: a history (--history) whose topics are conversations of a few people.
const SEED_VERSION = 3;

/**
 * One message in each stream, already read by its members, and the stream's first_message_id,
 * as the server writes them (actions/messages.ts insertMessageTxn).
 */
function welcomeEveryStream(db: Database.Database, owner: number, membersOf: ReadonlyMap<number, readonly number[]>): void {
  const insertMessage = db.prepare(
    `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content,
       rendered_content_version, date_sent, client, is_me_message, topic_links)
     SELECT ?, recipient_id, id, 'welcome', 'Welcome!', '<p>Welcome!</p>', 1, ?, 'bench', 0, '[]' FROM streams WHERE id = ?`,
  );
  const insertUserMessage = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, 1)');
  const setFirst = db.prepare('UPDATE streams SET first_message_id = ? WHERE id = ?');
  const now = Math.floor(Date.now() / 1000);
  for (const [streamId, members] of membersOf) {
    const messageId = Number(insertMessage.run(owner, now, streamId).lastInsertRowid);
    for (const userId of members) insertUserMessage.run(userId, messageId);
    setFirst.run(messageId, streamId);
  }
}

function loadPeople(dataDir: string): PeopleRealm {
  const db = new Database(realmFile(dataDir, 'default'), { readonly: true });
  try {
    const users = db.prepare('SELECT id, email, api_key FROM users WHERE is_active = 1 AND is_bot = 0 ORDER BY id').all() as {
      id: number;
      email: string;
      api_key: string;
    }[];
    const rows = db.prepare('SELECT user_id, stream_id FROM subscriptions WHERE active = 1 ORDER BY stream_id, user_id').all() as {
      user_id: number;
      stream_id: number;
    }[];
    const allHandsId = (db.prepare(`SELECT id FROM streams WHERE name = 'all hands'`).get() as { id: number }).id;
    const members = new Map<number, number[]>();
    const streamsOf = new Map<number, number[]>();
    for (const row of rows) {
      let list = members.get(row.stream_id);
      if (!list) members.set(row.stream_id, (list = []));
      list.push(row.user_id);
      let own = streamsOf.get(row.user_id);
      if (!own) streamsOf.set(row.user_id, (own = []));
      if (row.stream_id === allHandsId) own.unshift(row.stream_id);
      else own.push(row.stream_id);
    }
    const people = users.map((user) => ({
      id: user.id,
      auth: basicAuth(user.email, user.api_key),
      streamIds: streamsOf.get(user.id) ?? [],
    }));
    return { dataDir, people, members, allHandsId };
  } finally {
    db.close();
  }
}
