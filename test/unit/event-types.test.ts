import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/server';
import { repositoryFiles } from '../helpers/source-files';
import { clientEventSchema, declaredEventTypes } from '../../workers/events/types';

// An event literal's `type` key: `message_type:` does not match (no word boundary), nor a type
// annotation such as `type: 'direct' | 'stream'` (a literal key is followed by `,` `}` or a line end).
const EVENT_TYPE_KEY = /\btype: '([a-z_]+)'(?=\s*[,}\n])/g;

/**
 * The `type` strings of the events built by the code that publishes or queues them: the
 * actions and actors (the only places allowed to call `.publish(`) and the event queues.
 */
function publishedEventTypes(): Map<string, string> {
  const files = [
    ...repositoryFiles(path.join('workers', 'actions')),
    ...repositoryFiles(path.join('workers', 'actors')),
    path.join('workers', 'events', 'clients.ts'),
  ].filter((file) => file.endsWith('.ts'));
  const found = new Map<string, string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const match of text.matchAll(EVENT_TYPE_KEY)) found.set(match[1] as string, file);
  }
  return found;
}

t.test('the event union', async (t) => {
  t.test('every event type published anywhere in workers/ is declared in the union', async (t) => {
    const declared = new Set(declaredEventTypes());
    const published = publishedEventTypes();
    t.ok(published.has('message') && published.has('heartbeat'), 'the scan finds the publishers');
    for (const [type, file] of published) t.ok(declared.has(type), `${type} (${file}) is declared`);
  });

  t.test('the union declares every type the issue lists', async (t) => {
    t.strictSame(
      new Set(declaredEventTypes()),
      new Set([
        'message',
        'update_message',
        'delete_message',
        'reaction',
        'update_message_flags',
        'subscription',
        'stream',
        'realm_user',
        'typing',
        'user_settings',
        'update_display_settings',
        'update_global_notifications',
        'realm',
        'realm_linkifiers',
        'realm_playgrounds',
        'realm_emoji',
        'user_status',
        'user_topic',
        'user_group',
        'attachment',
        'custom_profile_fields',
        'alert_words',
        'scheduled_messages',
        'drafts',
        'muted_users',
        'presence',
        'heartbeat',
        // stream-prefs: the legacy twin of user_topic (api-notes §d)
        'muted_topics',
        'default_streams',
        'default_stream_groups',
        // legacy: the reading pointer zulip-js still offers
        'pointer',
        // bots (api-notes §d realm_bot)
        'realm_bot',
        // New users' default settings (api-notes §d)
        'realm_user_settings_defaults',
      ]),
    );
  });

  t.test('an undeclared type, an unknown op, an extra key and a missing key all fail', async (t) => {
    t.notOk(clientEventSchema.safeParse({ id: 1, type: 'no_such_event' }).success);
    t.notOk(clientEventSchema.safeParse({ id: 1, type: 'subscription', op: 'rename', stream_ids: [], user_ids: [] }).success);
    t.notOk(clientEventSchema.safeParse({ id: 1, type: 'alert_words', alert_words: [], extra: 1 }).success);
    t.notOk(clientEventSchema.safeParse({ id: 1, type: 'subscription', op: 'peer_add', stream_ids: [1] }).success);
    // The pre-FL-77-like singular form is not the real payload (api-notes §d).
    t.notOk(clientEventSchema.safeParse({ id: 1, type: 'subscription', op: 'peer_add', stream_id: 1, user_id: 2 }).success);
  });

  t.test('the two forms of delete_message validate, a mix of both does not', async (t) => {
    const stream = { id: 3, type: 'delete_message', message_type: 'stream', stream_id: 1, topic: 't' };
    t.ok(clientEventSchema.safeParse({ ...stream, message_ids: [1, 2] }).success);
    t.ok(clientEventSchema.safeParse({ ...stream, message_id: 1 }).success);
    t.notOk(clientEventSchema.safeParse({ ...stream, message_id: 1, message_ids: [1] }).success);
    t.notOk(
      clientEventSchema.safeParse({ id: 3, type: 'delete_message', message_type: 'private', message_ids: [1], stream_id: 1, topic: 't' })
        .success,
    );
  });

  t.test('reactions carry the neutral reaction types, each of them', async (t) => {
    const reaction = {
      id: 1,
      type: 'reaction',
      op: 'add',
      message_id: 5,
      emoji_name: 'x',
      emoji_code: 'x',
      user_id: 2,
      user: { user_id: 2, email: 'a@b.c', full_name: 'A' },
    };
    for (const reactionType of ['unicode_emoji', 'realm_emoji', 'service_extra_emoji']) {
      t.ok(clientEventSchema.safeParse({ ...reaction, reaction_type: reactionType }).success, reactionType);
    }
    t.notOk(clientEventSchema.safeParse({ ...reaction, reaction_type: 'other_emoji' }).success);
  });

  t.test('typing validates per message_type', async (t) => {
    const sender = { user_id: 1, email: 'a@x' };
    t.ok(
      clientEventSchema.safeParse({ id: 1, type: 'typing', op: 'start', message_type: 'private', sender, recipients: [sender] }).success,
    );
    t.ok(
      clientEventSchema.safeParse({ id: 1, type: 'typing', op: 'stop', message_type: 'stream', sender, stream_id: 2, topic: 't' }).success,
    );
    t.notOk(
      clientEventSchema.safeParse({ id: 1, type: 'typing', op: 'start', message_type: 'stream', sender, recipients: [sender] }).success,
    );
  });
});
