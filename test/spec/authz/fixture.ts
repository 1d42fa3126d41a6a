import Database from 'better-sqlite3';
import path from 'node:path';
import { ApiClient } from '../../helpers/http';
import { createBot, createMember } from '../../helpers/fixtures';
import { pngUpload, postFiles } from '../../helpers/files';
import { manage } from '../../helpers/manage';
import { deactivateUser, onePersonOfEachRole } from '../../helpers/people';
import type { Credentials, TestServer } from '../../helpers/server';

/** The six signed-in roles of realm A the route table judges (SPEC User.role, plus a bot). */
export const ROLES = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const;
export type RoleName = (typeof ROLES)[number];

/** Who calls: one of the roles, or a caller the API must refuse whatever the route. */
export type IdentityName = RoleName | 'deactivated' | 'deactivatedRealm' | 'otherRealm' | 'spectator';

export interface Identity {
  name: IdentityName;
  /** null: no credentials at all (a spectator). */
  credentials: Credentials | null;
  /** The sign-in password, for routes that take one (POST /fetch_api_key). */
  password: string | null;
  /** The Host header: realm A's unless the identity lives in another realm. */
  host: string | undefined;
}

/** Text that only the subscribers of realm A's private stream (owner, administrator) may ever read. */
export const PRIVATE_MARK = 'private-mark-4d1f';
/** A message of a private stream with protected history: only its sender, the owner, may read it. */
export const PROTECTED_MARK = 'protected-mark-7a3b';
/** Text of realm A's public stream, which its guest (not subscribed) may never read. */
export const PUBLIC_MARK = 'public-mark-9c2e';

/** Realm A's objects the table's calls name, each made by its owner unless said otherwise. */
export interface Fixture {
  realmId: number;
  users: Record<RoleName, number> & { victim: number; doomedBot: number };
  streams: { public: number; private: number; guests: number; doomed: number; protected: number };
  streamNames: { public: string; private: string; guests: string };
  messages: { public: number; private: number; guests: number; doomed: number; protected: number };
  group: number;
  doomedGroup: number;
  defaultStreamGroup: number;
  doomedDefaultStreamGroup: number;
  drafts: { kept: number; doomed: number };
  scheduled: { kept: number; doomed: number };
  attachment: { id: number; path: string };
  linkifiers: { kept: number; doomed: number };
  playground: number;
  profileFields: { kept: number; doomed: number };
  emoji: string;
  queues: { kept: string; doomed: string };
  /** A fresh name per call, for routes that create something named. */
  unique: (prefix: string) => string;
}

async function ok(
  answer: Promise<{ status: number; text: string; body: Record<string, unknown> }>,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await answer;
  if (res.status !== 200) throw new Error(`fixture ${what}: ${res.status} ${res.text}`);
  return res.body;
}

function iniValue(text: string, key: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`${key}=`));
  return line?.slice(key.length + 1).trim() ?? '';
}

/** A new realm made with the management CLI; its owner's credentials and host. */
function createRealm(server: TestServer, subdomain: string): { credentials: Credentials; password: string; host: string } {
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const created = manage(['create-realm', '--subdomain', subdomain, '--name', subdomain, '--owner-email', `boss@${subdomain}.test`], env);
  if (created.status !== 0) throw new Error(`create-realm ${subdomain}: ${created.stderr}`);
  return {
    credentials: { email: iniValue(created.stdout, 'email'), key: iniValue(created.stdout, 'key') },
    password: iniValue(created.stdout, 'password'),
    host: `${subdomain}.localhost:${server.port}`,
  };
}

export interface World {
  fixture: Fixture;
  identities: Identity[];
  /** Realm B: a live realm of its own, whose owner probes realm A's IDs on B's host. */
  otherRealm: { client: ApiClient; host: string };
}

/** Realm A (the default realm) with one person of each role and every object the table names; realms B and C. */
export async function buildWorld(server: TestServer): Promise<World> {
  const owner = new ApiClient(server.baseUrl, server.owner);
  const people = await onePersonOfEachRole(owner, server.owner);
  const bot = await createBot(owner, 'matrixbot');
  const doomedBot = await createBot(owner, 'doomedbot');
  const victim = await createMember(owner, 'Victim');
  const deactivated = await createMember(owner, 'Gone');
  let counter = 0;
  const unique = (prefix: string): string => `${prefix}-${++counter}`;

  const names = { public: 'matrix-public', private: 'matrix-private', guests: 'matrix-guests' };
  const subscribe = (
    client: ApiClient,
    name: string,
    extra: Record<string, string | number | boolean | object> = {},
  ): Promise<Record<string, unknown>> =>
    ok(
      client.post('/users/me/subscriptions', {
        subscriptions: [{ name, description: name === names.private ? PRIVATE_MARK : name === names.public ? PUBLIC_MARK : '' }],
        ...extra,
      }),
      name,
    );
  await subscribe(owner, names.public, { principals: [people.owner.id, people.admin.id, people.moderator.id, people.member.id, bot.id] });
  await subscribe(owner, names.private, { invite_only: true, principals: [people.owner.id, people.admin.id] });
  await subscribe(owner, names.guests, {
    principals: [people.owner.id, people.admin.id, people.moderator.id, people.member.id, people.guest.id, bot.id],
  });
  await subscribe(owner, 'matrix-doomed');
  // Protected history: the moderator, subscribed after the first message, may not read it.
  await subscribe(owner, 'matrix-protected', { invite_only: true, history_public_to_subscribers: false });
  const streamId = async (name: string): Promise<number> =>
    Number((await ok(owner.get('/get_stream_id', { stream: name }), name))['stream_id']);
  const streams = {
    public: await streamId(names.public),
    private: await streamId(names.private),
    guests: await streamId(names.guests),
    doomed: await streamId('matrix-doomed'),
    protected: await streamId('matrix-protected'),
  };
  const send = async (to: string, content: string, topic = 'matrix'): Promise<number> =>
    Number((await ok(owner.post('/messages', { type: 'stream', to, topic, content }), `message to ${to}`))['id']);
  const messages = {
    public: await send(names.public, `news ${PUBLIC_MARK}`),
    private: await send(names.private, `secret ${PRIVATE_MARK}`),
    guests: await send(names.guests, 'hello guests'),
    doomed: await send(names.guests, 'to be deleted'),
    protected: await send('matrix-protected', `history ${PROTECTED_MARK}`),
  };
  await ok(
    owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'matrix-protected' }], principals: [people.moderator.id] }),
    'late',
  );
  await send(names.public, 'a topic to delete', 'doomed topic');

  const group = async (name: string): Promise<number> => {
    await ok(owner.post('/user_groups/create', { name, description: 'matrix', members: [people.owner.id] }), name);
    const groups = (await ok(owner.get('/user_groups'), 'groups'))['user_groups'] as { id: number; name: string }[];
    return groups.find((g) => g.name === name)?.id ?? 0;
  };
  const defaultGroup = async (name: string): Promise<number> => {
    await ok(owner.post('/default_stream_groups/create', { group_name: name, description: 'matrix', stream_names: [names.public] }), name);
    const registered = await ok(owner.post('/register', { fetch_event_types: ['default_stream_groups'] }), 'register');
    return (registered['realm_default_stream_groups'] as { id: number; name: string }[]).find((g) => g.name === name)?.id ?? 0;
  };
  const draft = async (): Promise<number> => {
    const body = await ok(
      owner.post('/drafts', { drafts: [{ type: 'stream', to: [streams.guests], topic: 't', content: 'draft', timestamp: 1_700_000_000 }] }),
      'draft',
    );
    return (body['ids'] as number[])[0] ?? 0;
  };
  const scheduled = async (): Promise<number> => {
    const at = Math.floor(Date.now() / 1000) + 86_400;
    const body = await ok(
      owner.post('/scheduled_messages', {
        type: 'stream',
        to: streams.guests,
        topic: 't',
        content: 'later',
        scheduled_delivery_timestamp: at,
      }),
      'scheduled',
    );
    return Number(body['scheduled_message_id']);
  };
  const linkifier = async (prefix: string): Promise<number> =>
    Number(
      (await ok(owner.post('/realm/filters', { pattern: `${prefix}-(?P<id>[0-9]+)`, url_template: 'https://example.com/{id}' }), prefix))[
        'id'
      ],
    );
  const profileField = async (name: string): Promise<number> =>
    Number((await ok(owner.post('/realm/profile_fields', { name, field_type: 1 }), name))['id']);
  const queue = async (): Promise<string> => String((await ok(owner.post('/register', { event_types: ['message'] }), 'queue'))['queue_id']);

  const upload = await postFiles(server.baseUrl, '/user_uploads', server.owner, pngUpload());
  const uri = String((JSON.parse(upload.body.toString()) as { uri: string }).uri);
  const attachments = (await ok(owner.get('/attachments'), 'attachments'))['attachments'] as { id: number; path_id: string }[];
  const attachment = attachments.find((a) => uri.endsWith(a.path_id));
  const emoji = 'matrix_emoji';
  const emojiUpload = await postFiles(server.baseUrl, `/realm/emoji/${emoji}`, server.owner, pngUpload());
  if (emojiUpload.status !== 200) throw new Error(`fixture emoji: ${emojiUpload.status}`);
  const playground = Number(
    (
      await ok(owner.post('/realm/playgrounds', { name: 'Py', lexer_language: 'python', url_prefix: 'https://example.com/' }), 'playground')
    )['id'],
  );
  // An upload's path starts with its realm's ID (SPEC: /user_uploads/{realm_id}/...).
  const realmId = Number(attachment?.path_id.split('/')[0]);

  const fixture: Fixture = {
    realmId,
    users: {
      owner: people.owner.id,
      admin: people.admin.id,
      moderator: people.moderator.id,
      member: people.member.id,
      guest: people.guest.id,
      bot: bot.id,
      victim: victim.id,
      doomedBot: doomedBot.id,
    },
    streams,
    streamNames: names,
    messages,
    group: await group('matrix-group'),
    doomedGroup: await group('matrix-doomed-group'),
    defaultStreamGroup: await defaultGroup('matrix-dsg'),
    doomedDefaultStreamGroup: await defaultGroup('matrix-doomed-dsg'),
    drafts: { kept: await draft(), doomed: await draft() },
    scheduled: { kept: await scheduled(), doomed: await scheduled() },
    attachment: { id: attachment?.id ?? 0, path: attachment?.path_id ?? '' },
    linkifiers: { kept: await linkifier('KEPT'), doomed: await linkifier('DOOMED') },
    playground,
    profileFields: { kept: await profileField('Matrix field'), doomed: await profileField('Doomed field') },
    emoji,
    queues: { kept: await queue(), doomed: await queue() },
    unique,
  };
  await deactivateUser(owner, deactivated.id);

  const realmB = createRealm(server, 'matrixb');
  const gone = createRealm(server, 'matrixgone');
  // Neither the API nor the management CLI deactivates a realm (test/spec/03-realms.test.ts).
  const db = new Database(path.join(server.dataDir, 'realms', 'matrixgone.sqlite3'));
  db.prepare('UPDATE realm SET deactivated = 1').run();
  db.close();

  const person = (name: IdentityName, credentials: Credentials | null, password: string | null, host?: string): Identity => ({
    name,
    credentials,
    password,
    host,
  });
  const identities: Identity[] = [
    person('owner', server.owner, server.owner.password),
    person('admin', people.admin, null),
    person('moderator', people.moderator, null),
    person('member', people.member, null),
    person('guest', people.guest, null),
    person('bot', bot, null),
    person('deactivated', deactivated, deactivated.password),
    // Realm B's owner on realm A's host, and the deactivated realm's owner on its own.
    person('otherRealm', realmB.credentials, realmB.password),
    person('deactivatedRealm', gone.credentials, gone.password, gone.host),
    person('spectator', null, null),
  ];
  return { fixture, identities, otherRealm: { client: new ApiClient(server.baseUrl, realmB.credentials, realmB.host), host: realmB.host } };
}
