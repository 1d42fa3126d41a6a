import { errors } from '../lib/errors';
import type { MessageFlag } from '../lib/flags';
import { RESOLVED_TOPIC_PREFIX } from '../lib/resolved-topic';

/**
 * The register `narrow` (SPEC POST /register): message events reach a queue only when the
 * message matches every [operator, operand] pair. Only what a message event carries can be
 * matched, so full-text search and message ids are not narrow filters for a queue.
 */
export type QueueNarrow = readonly (readonly [string, string])[];

const OPERATORS = new Set(['stream', 'streams', 'topic', 'sender', 'is', 'dm', 'pm-with', 'dm-including', 'group-pm-with']);
const IS_OPERANDS = new Set(['dm', 'private', 'starred', 'mentioned', 'alerted', 'unread', 'resolved']);

/** Register's check: a pair this filter cannot apply is BAD_NARROW, not a silent no-op. */
export function checkQueueNarrow(narrow: QueueNarrow): void {
  for (const [operator, operand] of narrow) {
    if (!OPERATORS.has(operator)) throw errors.badNarrow(`unknown operator ${operator}`);
    if (operator === 'is' && !IS_OPERANDS.has(operand)) {
      throw errors.badNarrow(`unknown 'is' operand ${operand}`);
    }
    if (operator === 'streams' && operand !== 'public') {
      throw errors.badNarrow(`unknown 'streams' operand ${operand}`);
    }
  }
}

/** The message fields a narrow looks at, as a message event carries them. */
export interface NarrowableMessage {
  type: string;
  display_recipient: unknown;
  subject: string;
  sender_email: string;
  sender_id: number;
}

/** What the queue's user knows of the message beside its fields. */
export interface ViewerContext {
  viewerId: number;
  flags: readonly MessageFlag[];
  publicStream: boolean;
}

export function matchesQueueNarrow(narrow: QueueNarrow, message: NarrowableMessage, viewer: ViewerContext): boolean {
  for (const [operator, operand] of narrow) {
    if (!matchesTerm(operator, operand, message, viewer)) return false;
  }
  return true;
}

function matchesTerm(operator: string, operand: string, message: NarrowableMessage, viewer: ViewerContext): boolean {
  const { flags, publicStream } = viewer;
  const isStream = message.type === 'stream';
  switch (operator) {
    case 'stream':
      return isStream && String(message.display_recipient).toLowerCase() === operand.toLowerCase();
    case 'streams':
      return isStream && publicStream;
    case 'topic':
      return isStream && message.subject.toLowerCase() === operand.toLowerCase();
    case 'sender':
      return sameUser(operand, message.sender_email, message.sender_id);
    case 'is':
      return matchesIs(operand, message, flags);
    case 'dm':
    case 'pm-with':
      return !isStream && sameParticipants(operand, message, viewer.viewerId);
    case 'dm-including':
      return !isStream && participantsOf(message).some((p) => sameUser(operand, p.email, p.id));
    case 'group-pm-with':
      return !isStream && participantsOf(message).length > 2 && participantsOf(message).some((p) => sameUser(operand, p.email, p.id));
    default:
      return false;
  }
}

function matchesIs(operand: string, message: NarrowableMessage, flags: readonly MessageFlag[]): boolean {
  switch (operand) {
    case 'dm':
    case 'private':
      return message.type === 'private';
    case 'starred':
      return flags.includes('starred');
    case 'mentioned':
      return flags.includes('mentioned') || flags.includes('wildcard_mentioned');
    case 'alerted':
      return flags.includes('has_alert_word');
    case 'unread':
      return !flags.includes('read');
    case 'resolved':
      return message.type === 'stream' && message.subject.startsWith(RESOLVED_TOPIC_PREFIX);
    default:
      return false;
  }
}

interface Participant {
  id: number;
  email: string;
}

function participantsOf(message: NarrowableMessage): Participant[] {
  return Array.isArray(message.display_recipient) ? (message.display_recipient as Participant[]) : [];
}

function sameUser(operand: string, email: string, id: number): boolean {
  return operand.toLowerCase() === email.toLowerCase() || operand === String(id);
}

/** `dm:` names the conversation's participants, by email or id; the viewer may be left out. */
function sameParticipants(operand: string, message: NarrowableMessage, viewerId: number): boolean {
  const wanted = operand
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const participants = participantsOf(message);
  const others = participants.filter((p) => p.id !== viewerId);
  const matchesAll = (list: Participant[]): boolean =>
    list.length === wanted.length && wanted.every((w) => list.some((p) => sameUser(w, p.email, p.id)));
  return matchesAll(participants) || matchesAll(others);
}
