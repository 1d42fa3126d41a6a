import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { realmOnAnotherShard } from '../helpers/shards';

// Crashes lose nothing: writers in two realms on two shards (stream and direct messages, edits,
// reactions, stars) record every write answered with success; the whole server is killed
// (SIGKILL) at a random moment, restarted, and every acknowledged write must be there, as
// acknowledged, with every realm file passing integrity_check. Bounded: CRASH_CYCLES cycles
// (10 in npm test), each a second or two of writing.

const CYCLES = Number(process.env['CRASH_CYCLES'] ?? 10);
// Periodic snapshots every 200 ms, so that some kills land while a shard is copying a realm.
const SERVER_ENV = { SHARDS: '2', BACKUP_INTERVAL: '0.2', BACKUP_KEEP: '3' };

/** Returns as soon as a snapshot is being written (a new `.partial` copy), or after 2 s. */
async function waitForSnapshotUnderWay(dataDir: string, seen: ReadonlySet<string>): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    if (snapshotFiles(dataDir).partial.some((file) => !seen.has(file))) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The snapshots of every realm under `dataDir`: complete ones, and copies a kill interrupted. */
function snapshotFiles(dataDir: string): { complete: string[]; partial: string[] } {
  const root = path.join(dataDir, 'backups');
  const all = fs.existsSync(root)
    ? fs.readdirSync(root).flatMap((realm) => fs.readdirSync(path.join(root, realm)).map((name) => path.join(root, realm, name)))
    : [];
  return { complete: all.filter((file) => file.endsWith('.sqlite3')), partial: all.filter((file) => file.endsWith('.partial')) };
}
const WRITERS_PER_REALM = 3;

interface Written {
  /** Contents the message may have: the acknowledged one, plus edits whose answer was lost. */
  contents: Set<string>;
  /** Acknowledged, and not undone by a later request whose answer was lost. */
  reacted: boolean;
  starred: boolean;
  /**
   * An edit of it is in flight. Writers edit one message one at a time: two concurrent edits
   * are both acknowledged, and their answers may arrive in the other order than their commits,
   * so neither answer would say which content is the last.
   */
  editing: boolean;
}

/** A seeded generator, so a failing cycle can be replayed (CRASH_SEED). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

t.test('crash loop: every acknowledged write survives SIGKILL', async (t) => {
  const seed = Number(process.env['CRASH_SEED'] ?? Date.now() % 100_000);
  t.comment(`seed ${seed} (CRASH_SEED replays it)`);
  const next = random(seed);
  let server: TestServer = await startServer({ env: SERVER_ENV });
  const { dataDir, port } = server;
  t.teardown(() => server.stop());

  const defaultOwner = new ApiClient(server.baseUrl, server.owner);
  const otherOwner = realmOnAnotherShard(server, 2);
  const realms = await Promise.all(
    [defaultOwner, otherOwner].map(async (owner) => ({
      owner,
      peer: await createMember(owner, 'Peer'),
      written: new Map<number, Written>(),
    })),
  );

  let acknowledged = 0;
  let worstRestartMs = 0;
  let killsDuringSnapshot = 0;
  const partialsSeen = new Set<string>();
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    let running = true;
    const writer = async (realm: (typeof realms)[number], index: number): Promise<void> => {
      const { owner, peer, written } = realm;
      for (let op = 0; running; op++) {
        const kind = op % 5;
        const known = [...written.keys()];
        const target = known[Math.floor(next() * known.length)];
        try {
          if (kind <= 1 || target === undefined) {
            const content = `c${cycle} w${index} op${op} ${kind === 0 ? 'stream' : 'direct'}`;
            const params =
              kind === 0 ? { type: 'stream', to: 'general', topic: `crash ${index}`, content } : { type: 'direct', to: [peer.id], content };
            const sent = await owner.post('/messages', params);
            if (sent.status === 200) {
              written.set(Number(sent.body['id']), { contents: new Set([content]), reacted: false, starred: false, editing: false });
              acknowledged++;
            }
          } else {
            const entry = written.get(target) as Written;
            if (kind === 2 && !entry.editing) {
              const content = `edited c${cycle} w${index} op${op}`;
              entry.contents.add(content);
              entry.editing = true;
              try {
                const edited = await owner.call('PATCH', `/messages/${target}`, { content });
                if (edited.status === 200) {
                  entry.contents = new Set([content]);
                  acknowledged++;
                }
              } finally {
                entry.editing = false;
              }
            } else if (kind === 3 && !entry.reacted) {
              const reacted = await owner.post(`/messages/${target}/reactions`, { emoji_name: 'octopus' });
              if (reacted.status === 200) {
                entry.reacted = true;
                acknowledged++;
              }
            } else if (kind === 4 && !entry.starred) {
              const starred = await owner.post('/messages/flags', { messages: [target], op: 'add', flag: 'starred' });
              if (starred.status === 200) {
                entry.starred = true;
                acknowledged++;
              }
            }
          }
        } catch {
          // The connection died with the server: this write was never acknowledged.
        }
      }
    };
    const writers = realms.flatMap((realm) => Array.from({ length: WRITERS_PER_REALM }, (_, i) => writer(realm, i)));
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(next() * 1200)));
    // Every other cycle aims its kill at a snapshot under way (one is copied every 200 ms).
    if (cycle % 2 === 1) await waitForSnapshotUnderWay(dataDir, partialsSeen);
    await server.kill();
    const interrupted = snapshotFiles(dataDir).partial.filter((file) => !partialsSeen.has(file));
    if (interrupted.length > 0) killsDuringSnapshot++;
    for (const file of interrupted) partialsSeen.add(file);
    running = false;
    await Promise.all(writers);

    const restartStarted = Date.now();
    server = await startServer({ dataDir, port, env: SERVER_ENV });
    worstRestartMs = Math.max(worstRestartMs, Date.now() - restartStarted);
  }

  let lost = 0;
  const problems: string[] = [];
  for (const { owner, written } of realms) {
    for (const [id, entry] of written) {
      const fetched = await owner.get(`/messages/${id}`, { apply_markdown: false });
      const message = fetched.body['message'] as { content: string; flags: string[]; reactions: { emoji_name: string }[] } | undefined;
      const missing: string[] = [];
      if (!message) missing.push('the message');
      else {
        if (!entry.contents.has(message.content)) missing.push(`its content (${JSON.stringify(message.content)})`);
        if (entry.reacted && !message.reactions.some((reaction) => reaction.emoji_name === 'octopus')) missing.push('its reaction');
        if (entry.starred && !message.flags.includes('starred')) missing.push('its star');
      }
      if (missing.length > 0) {
        lost++;
        problems.push(`message ${id}: ${missing.join(', ')}`);
      }
    }
  }
  const messages = realms.reduce((sum, realm) => sum + realm.written.size, 0);
  t.comment(
    `${CYCLES} cycles, ${acknowledged} acknowledged writes (${messages} messages), ${lost} lost, worst restart ${worstRestartMs} ms`,
  );
  t.ok(messages > CYCLES * 2, `messages were written in every cycle (${messages})`);
  t.strictSame(problems, [], 'every acknowledged write is there as acknowledged');

  await server.stop();
  const realmDir = path.join(dataDir, 'realms');
  const files = fs.readdirSync(realmDir).filter((name) => name.endsWith('.sqlite3'));
  t.strictSame(files.length, 2, 'both realm files');
  for (const name of files) {
    const db = new Database(path.join(realmDir, name), { readonly: true });
    t.strictSame(db.pragma('integrity_check', { simple: true }), 'ok', `${name} passes integrity_check`);
    db.close();
  }
  // A snapshot is renamed into place only when complete: every one there is a whole database.
  const { complete } = snapshotFiles(dataDir);
  const damaged = complete.filter((file) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('integrity_check', { simple: true }) !== 'ok';
    } finally {
      db.close();
    }
  });
  t.comment(`${killsDuringSnapshot} of ${CYCLES} kills landed during a snapshot; ${complete.length} snapshots kept`);
  t.ok(complete.length > 0, `snapshots were written (${complete.length})`);
  t.strictSame(damaged, [], 'every snapshot kept passes integrity_check');
});
