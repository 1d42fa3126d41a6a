/**
 * Wire-level bugs that the suite must catch (test/mutation/run.ts plants each in turn). A mutant
 * replaces `snippet`, which must occur exactly once in `file`, by `replacement`; `tests` are the
 * compiled test files of its domain, run with tap against the mutated build.
 */
export interface Mutant {
  id: string;
  description: string;
  /** Relative to the repository root. */
  file: string;
  snippet: string;
  replacement: string;
  /** Compiled test files, relative to the repository root (build/test/... .test.js). */
  tests: string[];
}

const test = (name: string): string => `build/test/${name}.test.js`;

export const MUTANTS: Mutant[] = [
  // --- types flipped ----------------------------------------------------------------------------
  {
    id: 'fetch-api-key-user-id-string',
    description: 'POST /fetch_api_key answers user_id as a string',
    file: 'workers/endpoints/accounts.ts',
    snippet: 'return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };',
    replacement: 'return { api_key: user.api_key, email: user.delivery_email, user_id: String(user.id) };',
    tests: [test('endpoints/accounts'), test('clients/zulip-js-accounts')],
  },
  {
    // The same flip laundered through JSON.parse (typed `any`), which tsc lets through: the tests must catch it.
    id: 'fetch-api-key-user-id-string-untyped',
    description: 'POST /fetch_api_key answers user_id as a string, past the type checker',
    file: 'workers/endpoints/accounts.ts',
    snippet: 'return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };',
    replacement: 'return { api_key: user.api_key, email: user.delivery_email, user_id: JSON.parse(JSON.stringify(String(user.id))) };',
    tests: [test('endpoints/accounts'), test('clients/zulip-js-accounts')],
  },
  {
    id: 'bots-default-all-public-streams-number',
    description: 'GET /bots and realm_bots answer default_all_public_streams as 0/1',
    file: 'workers/queries/bots.ts',
    snippet: 'default_all_public_streams: settings?.default_all_public_streams === 1,',
    replacement: 'default_all_public_streams: settings?.default_all_public_streams ?? 0,',
    tests: [test('endpoints/bots'), test('events/people-events')],
  },
  {
    id: 'message-is-me-message-number',
    description: 'message objects carry is_me_message as 0/1',
    file: 'workers/queries/messages.ts',
    snippet: 'is_me_message: message.is_me_message === 1,',
    replacement: 'is_me_message: message.is_me_message,',
    tests: [test('endpoints/messages'), test('endpoints/render')],
  },
  {
    id: 'bots-default-sending-stream-omitted',
    description: 'a bot without a default sending stream omits default_sending_stream instead of null',
    file: 'workers/queries/bots.ts',
    snippet: '    default_sending_stream: streamName(realm, settings?.default_sending_stream_id ?? null),\n',
    replacement:
      '    ...(settings?.default_sending_stream_id ? { default_sending_stream: streamName(realm, settings.default_sending_stream_id) } : {}),\n',
    tests: [test('endpoints/bots'), test('events/people-events')],
  },
  {
    id: 'message-stream-id-omitted',
    description: 'stream message objects lack stream_id',
    file: 'workers/queries/messages.ts',
    snippet: "  if (message.stream_id !== null) object['stream_id'] = message.stream_id;\n",
    replacement: '',
    tests: [test('endpoints/messages-fetch'), test('endpoints/messages')],
  },
  {
    id: 'invalid-api-key-status-400',
    description: 'a wrong API key answers 400 instead of 401',
    file: 'workers/lib/errors.ts',
    snippet: "'INVALID_API_KEY', 401,",
    replacement: "'INVALID_API_KEY', 400,",
    tests: [test('spec/02-authentication')],
  },
  {
    id: 'must-be-admin-code',
    description: 'administrator-only refusals carry code BAD_REQUEST instead of UNAUTHORIZED_PRINCIPAL',
    file: 'workers/lib/errors.ts',
    snippet: "new ApiError('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL')",
    replacement: "new ApiError('Must be an organization administrator', 'BAD_REQUEST')",
    tests: [test('endpoints/linkifiers'), test('endpoints/default-streams')],
  },
  // --- events dropped or duplicated -------------------------------------------------------------
  {
    id: 'reaction-add-event-dropped',
    description: 'adding a reaction publishes no reaction event',
    file: 'workers/actions/reactions.ts',
    snippet: "  tx.publish(\n    {\n      type: 'reaction',",
    replacement: "  if (op === 'remove') tx.publish(\n    {\n      type: 'reaction',",
    tests: [test('endpoints/reactions'), test('events/message-change-events')],
  },
  {
    id: 'alert-words-event-duplicated',
    description: 'changing alert words publishes the alert_words event twice',
    file: 'workers/actions/alert-words.ts',
    snippet: "    tx.publish({ type: 'alert_words', alert_words: list }, [user.id]);\n",
    replacement:
      "    tx.publish({ type: 'alert_words', alert_words: list }, [user.id]);\n    tx.publish({ type: 'alert_words', alert_words: list }, [user.id]);\n",
    tests: [test('endpoints/alert-words'), test('events/realm-data-events')],
  },
  {
    id: 'draft-remove-event-dropped',
    description: 'deleting a draft publishes no drafts remove event',
    file: 'workers/actions/drafts.ts',
    snippet: "    tx.publish({ type: 'drafts', op: 'remove', draft_id: draftId }, [actor.id]);\n",
    replacement: '',
    tests: [test('endpoints/drafts')],
  },
  {
    id: 'peer-add-event-dropped',
    description: 'subscribing someone sends the other subscribers no peer_add',
    file: 'workers/actions/subscriptions.ts',
    snippet:
      "    if (peers.length > 0) tx.publish({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: newUsers }, peers);\n",
    replacement:
      "    if (peers.length < 0) tx.publish({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: newUsers }, peers);\n",
    tests: [test('events/stream-events'), test('endpoints/subscriptions')],
  },
  {
    id: 'typing-start-event-dropped',
    description: 'POST /typing op=start publishes nothing',
    file: 'workers/actors/typing.ts',
    snippet: '    this.realm.events.publish(notice.event, notice.userIds);\n',
    replacement: "    if (notice.event.op !== 'start') this.realm.events.publish(notice.event, notice.userIds);\n",
    tests: [test('events/typing'), test('clients/zulip-js-typing')],
  },
  {
    id: 'realm-emoji-deactivate-event-dropped',
    description: 'deleting a custom emoji publishes no realm_emoji update',
    file: 'workers/actions/realm-emoji.ts',
    snippet: "    tx.realm.stmt('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?').run(row.id);\n    publishRealmEmoji(tx);\n",
    replacement: "    tx.realm.stmt('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?').run(row.id);\n",
    tests: [test('endpoints/realm-emoji')],
  },
  {
    id: 'user-status-away-omitted',
    description: 'the user_status event of a status change leaves out away',
    file: 'workers/actions/user-status.ts',
    snippet: "    if (checked.away !== undefined) event['away'] = checked.away;\n",
    replacement: '',
    tests: [test('endpoints/user-status')],
  },
  // --- flags ------------------------------------------------------------------------------------
  {
    id: 'mute-sticks-after-unmute',
    description: 'after unmuting, the formerly muted sender\'s new messages still arrive with flags ["read"]',
    file: 'workers/queries/accounts.ts',
    snippet:
      "export function usersWhoMuted(realm: Realm, senderId: number): Set<number> {\n  return new Set(\n    (realm.stmt('SELECT user_id FROM muted_users WHERE muted_user_id = ?').all(senderId) as { user_id: number }[]).map(\n      (row) => row.user_id,\n    ),\n  );\n}",
    replacement:
      "const everMuted = new Map<number, Set<number>>();\nexport function usersWhoMuted(realm: Realm, senderId: number): Set<number> {\n  const users = everMuted.get(senderId) ?? new Set<number>();\n  everMuted.set(senderId, users);\n  for (const row of realm.stmt('SELECT user_id FROM muted_users WHERE muted_user_id = ?').all(senderId) as { user_id: number }[]) users.add(row.user_id);\n  return users;\n}",
    tests: [test('endpoints/muted-users')],
  },
  {
    id: 'mentioned-flag-not-set',
    description: "a mentioned recipient's copy lacks the mentioned flag",
    file: 'workers/actions/messages.ts',
    snippet: '    if (rendered.mentionedUserIds.has(userId)) flags |= FLAG_BIT.mentioned;\n',
    replacement: '',
    tests: [test('endpoints/messages'), test('events/message-events')],
  },
  {
    id: 'own-message-unread',
    description: 'a message sent from a human client is unread for its sender',
    file: 'workers/actions/messages.ts',
    snippet: '    if (userId === sender.id && HUMAN_CLIENT.test(m.client.toLowerCase())) flags |= FLAG_BIT.read;\n',
    replacement: '    if (userId === sender.id && HUMAN_CLIENT.test(m.client.toLowerCase()) && userId < 0) flags |= FLAG_BIT.read;\n',
    tests: [test('endpoints/messages'), test('endpoints/web-sessions-traffic')],
  },
  {
    id: 'alert-word-flag-for-sender',
    description: "the sender's own copy gets has_alert_word for their own alert word",
    file: 'workers/actions/messages.ts',
    snippet: '    if (rendered.alertWordUserIds.has(userId) && userId !== sender.id) flags |= FLAG_BIT.has_alert_word;\n',
    replacement: '    if (rendered.alertWordUserIds.has(userId)) flags |= FLAG_BIT.has_alert_word;\n',
    tests: [test('endpoints/alert-words'), test('events/message-events')],
  },
  {
    id: 'flag-change-not-stored',
    description: 'POST /messages/flags publishes the change but does not store it',
    file: 'workers/actions/flags.ts',
    snippet: '    else update.run(bit, user.id, messageId);\n',
    replacement: '    else if (bit < 0) update.run(bit, user.id, messageId);\n',
    tests: [test('endpoints/flags'), test('endpoints/mark-read')],
  },
  // --- permissions ------------------------------------------------------------------------------
  {
    id: 'linkifiers-admin-check-removed',
    description: 'members may add, change and remove linkifiers',
    file: 'workers/actions/linkifiers.ts',
    snippet: 'function checkAdmin(actor: UserRow): void {\n  if (!isAdmin(actor)) throw errors.mustBeAdmin();',
    replacement: 'function checkAdmin(actor: UserRow): void {\n  if (!isAdmin(actor) && actor.id < 0) throw errors.mustBeAdmin();',
    tests: [test('endpoints/linkifiers')],
  },
  {
    id: 'default-stream-add-admin-check-removed',
    description: 'members may add default streams',
    file: 'workers/actions/default-streams.ts',
    snippet:
      'export async function doAddDefaultStream(realm: Realm, actor: UserRow, streamId: number): Promise<void> {\n  if (!isAdmin(actor)) throw errors.mustBeAdmin();\n',
    replacement: 'export async function doAddDefaultStream(realm: Realm, actor: UserRow, streamId: number): Promise<void> {\n',
    tests: [test('endpoints/default-streams')],
  },
  {
    id: 'private-stream-visibility-inverted',
    description: 'unsubscribed non-administrators see private streams, administrators do not',
    file: 'workers/queries/streams.ts',
    snippet: '  return role <= ROLE.ADMINISTRATOR;\n}',
    replacement: '  return role > ROLE.ADMINISTRATOR;\n}',
    tests: [test('endpoints/stream-access'), test('endpoints/stream-reads')],
  },
  {
    id: 'guest-sees-public-streams',
    description: 'guests see every public stream',
    file: 'workers/queries/streams.ts',
    snippet: '  if (stream.invite_only === 0) return role !== ROLE.GUEST;\n',
    replacement: '  if (stream.invite_only === 0) return true;\n',
    tests: [test('endpoints/stream-access')],
  },
  {
    id: 'private-history-always-shared',
    description: 'subscribers of a private stream without shared history read messages from before they joined',
    file: 'workers/queries/streams.ts',
    snippet: '  return stream.history_public_to_subscribers === 1 && isSubscribed(realm, user.id, stream.id);\n',
    replacement: '  return isSubscribed(realm, user.id, stream.id);\n',
    tests: [test('endpoints/stream-reads'), test('endpoints/stream-access')],
  },
  {
    id: 'any-member-administers-any-bot',
    description: "bot owner check removed: any user may change or deactivate anyone's bot",
    file: 'workers/queries/accounts.ts',
    snippet: '(target.is_bot === 1 && target.bot_owner_id === actor.id)',
    replacement: '(target.is_bot === 1)',
    tests: [test('endpoints/bots')],
  },
  {
    id: 'accounts-cache-shared-across-realms',
    description: 'realm isolation: the cache of authenticated accounts is shared by the realms of a shard',
    file: 'workers/actions/auth.ts',
    snippet: 'const knownAccounts = versionedCache(() => new Map<string, UserRow>());',
    replacement:
      'const everyRealmsAccounts = new Map<string, UserRow>();\nconst knownAccounts = versionedCache(() => everyRealmsAccounts);',
    tests: [test('spec/03-realms')],
  },
  {
    id: 'unsubscribe-any-bot',
    description: "any user may unsubscribe anyone's bot from a stream",
    file: 'workers/actions/unsubscribe.ts',
    snippet: '  if (target.is_bot && target.bot_owner_id === actor.id) return;\n',
    replacement: '  if (target.is_bot) return;\n',
    tests: [test('endpoints/unsubscribe')],
  },
  {
    id: 'delete-message-owner-check-inverted',
    description: "own-bot check inverted: members may delete others' messages but not their own bots'",
    file: 'workers/actions/message-delete.ts',
    snippet: '  if (message.sender_id !== user.id && !ownBot) throw errors.noPermissionToDelete();\n',
    replacement: '  if (message.sender_id !== user.id && ownBot) throw errors.noPermissionToDelete();\n',
    tests: [test('endpoints/message-delete')],
  },
  // --- anchors and register data ----------------------------------------------------------------
  {
    id: 'found-oldest-off-by-one',
    description: 'GET /messages says found_oldest only when fewer than num_before messages lie before',
    file: 'workers/queries/message-fetch.ts',
    snippet: '    foundOldest: before.length <= request.numBefore,\n',
    replacement: '    foundOldest: before.length < request.numBefore,\n',
    tests: [test('endpoints/messages-fetch'), test('endpoints/flags-narrow')],
  },
  {
    id: 'num-before-off-by-one',
    description: 'GET /messages returns num_before + 1 messages before the anchor',
    file: 'workers/queries/message-fetch.ts',
    snippet: '  const rows = before.slice(0, request.numBefore).reverse();\n',
    replacement: '  const rows = before.slice(0, request.numBefore + 1).reverse();\n',
    tests: [test('endpoints/messages-fetch')],
  },
  {
    id: 'register-muted-users-missing',
    description: 'POST /register leaves muted_users out of its state',
    file: 'workers/queries/register-users.ts',
    snippet: "  if (wants('muted_users')) state['muted_users'] = mutedUsers(realm, user.id);\n",
    replacement: "  if (wants('muted_users') && user.id < 0) state['muted_users'] = mutedUsers(realm, user.id);\n",
    tests: [test('events/register'), test('endpoints/muted-users')],
  },
];
