/**
 * Emoji reactions (SPEC "DELETE /messages/{message_id}/reactions", api-notes §b "POST
 * /messages/{message_id}/reactions", event `reaction` api-notes §d).
 */
import { errors } from '../lib/errors';
import { checkEmoji, emojiByName, type EmojiRef, isReactionType } from '../queries/emoji';
import { messageUpdateAudience } from '../queries/message-audience';
import { accessMessage, userFlags, type MessageRow } from '../queries/messages';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { createHistoricalRowTxn } from './flags';

export interface ReactionRequest {
  emojiName: string | undefined;
  emojiCode: string | undefined;
  reactionType: string | undefined;
}

interface ResolvedReaction {
  message: MessageRow;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

function existingReactionName(realm: Realm, messageId: number, code: string, type: string, userId?: number): string | undefined {
  const row =
    userId === undefined
      ? realm
          .rows<{ emoji_name: string }, [number, string, string]>(
            'SELECT emoji_name FROM reactions WHERE message_id = ? AND emoji_code = ? AND reaction_type = ? ORDER BY id LIMIT 1',
          )
          .get(messageId, code, type)
      : realm
          .rows<{ emoji_name: string }, [number, number, string, string]>(
            'SELECT emoji_name FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?',
          )
          .get(messageId, userId, code, type);
  return row?.emoji_name;
}

/**
 * Validates a new reaction. Without both code and type, they come from the name. A reaction
 * whose code and type someone already used is a vote for it and takes its name unchecked (so a
 * vote for a since-deactivated custom emoji still works); otherwise the triple must be valid.
 */
export function checkAddReaction(
  realm: Realm,
  user: UserRow,
  messageId: number,
  emojiName: string,
  request: ReactionRequest,
): ResolvedReaction {
  const { message } = accessMessage(realm, user, messageId);
  const ref: EmojiRef | { emoji_code: string; reaction_type: string } =
    request.emojiCode === undefined || request.reactionType === undefined
      ? emojiByName(realm, emojiName)
      : { emoji_code: request.emojiCode, reaction_type: request.reactionType };
  if (existingReactionName(realm, messageId, ref.emoji_code, ref.reaction_type, user.id) !== undefined) {
    throw errors.reactionAlreadyExists();
  }
  const votedName = existingReactionName(realm, messageId, ref.emoji_code, ref.reaction_type);
  if (votedName === undefined) checkEmoji(realm, emojiName, ref.emoji_code, ref.reaction_type);
  return { message, emoji_name: votedName ?? emojiName, ...ref };
}

/** Validates a removal: the user's own reaction with that code and type must exist. */
export function checkRemoveReaction(realm: Realm, user: UserRow, messageId: number, request: ReactionRequest): ResolvedReaction {
  const { message } = accessMessage(realm, user, messageId);
  let code = request.emojiCode;
  let type = request.reactionType;
  if (code === undefined) {
    if (request.emojiName === undefined) throw errors.emojiNameOrCodeMissing();
    const ref = emojiByName(realm, request.emojiName);
    code = ref.emoji_code;
    // SPEC §Versioning (feature level 2): reaction_type may be left out for custom emoji.
    type ??= ref.reaction_type;
  }
  type ??= 'unicode_emoji';
  const name = existingReactionName(realm, messageId, code, type, user.id);
  if (name === undefined) throw errors.reactionDoesNotExist();
  return { message, emoji_name: name, emoji_code: code, reaction_type: type };
}

function publishReactionTxn(tx: Txn, op: 'add' | 'remove', user: UserRow, reaction: ResolvedReaction): void {
  // Checked by checkEmoji, or read from a reaction stored after that check.
  if (!isReactionType(reaction.reaction_type)) throw new Error(`unchecked reaction type ${reaction.reaction_type}`);
  const reactionType = reaction.reaction_type;
  tx.publish(
    {
      type: 'reaction',
      op,
      message_id: reaction.message.id,
      emoji_name: reaction.emoji_name,
      emoji_code: reaction.emoji_code,
      reaction_type: reactionType,
      user_id: user.id,
      // api-notes §d: the legacy object says user_id, unlike message reactions' user.id.
      user: { user_id: user.id, email: user.email, full_name: user.full_name },
    },
    messageUpdateAudience(tx.realm, reaction.message),
  );
}

/** POST /messages/{message_id}/reactions. A never-received message becomes historical for the user. */
export function doAddReaction(realm: Realm, user: UserRow, messageId: number, emojiName: string, request: ReactionRequest): Promise<void> {
  return realm.transact((tx) => {
    const reaction = checkAddReaction(tx.realm, user, messageId, emojiName, request);
    if (userFlags(tx.realm, user.id, messageId) === undefined) createHistoricalRowTxn(tx, user.id, messageId);
    tx.realm
      .stmt('INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, ?, ?, ?)')
      .run(messageId, user.id, reaction.emoji_name, reaction.emoji_code, reaction.reaction_type);
    publishReactionTxn(tx, 'add', user, reaction);
  });
}

/** DELETE /messages/{message_id}/reactions: removes the user's own vote. */
export function doRemoveReaction(realm: Realm, user: UserRow, messageId: number, request: ReactionRequest): Promise<void> {
  return realm.transact((tx) => {
    const reaction = checkRemoveReaction(tx.realm, user, messageId, request);
    tx.realm
      .stmt('DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?')
      .run(messageId, user.id, reaction.emoji_code, reaction.reaction_type);
    publishReactionTxn(tx, 'remove', user, reaction);
  });
}
