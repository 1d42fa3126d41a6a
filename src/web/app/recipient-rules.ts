/** What the compose fields say, turned into the recipients POST /messages takes. DOM-free. */
import type { ChatSnapshot } from '../common/types';

export type ComposeMode = 'stream' | 'direct';

export type Resolved = { type: 'stream'; to: number; topic: string } | { type: 'direct'; to: number[] } | { error: string };

export function resolveRecipients(
  snapshot: ChatSnapshot,
  fields: { mode: ComposeMode; stream: string; topic: string; to: string },
): Resolved {
  if (fields.mode === 'stream') {
    const wanted = fields.stream.trim().replace(/^#\s*/, '').toLowerCase();
    if (wanted === '') return { error: 'Choose a stream' };
    const stream = [...snapshot.streams.values()].find((candidate) => candidate.name.toLowerCase() === wanted);
    if (!stream) return { error: `There is no stream named ${fields.stream.trim()}` };
    const topic = fields.topic.trim();
    if (topic === '' && snapshot.realm['realm_mandatory_topics'] === true) return { error: 'Give a topic' };
    return { type: 'stream', to: stream.stream_id, topic };
  }
  const ids: number[] = [];
  for (const part of fields.to
    .split(',')
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const wanted = part.toLowerCase();
    const user = [...snapshot.users.values()].find(
      (candidate) => candidate.is_active && (candidate.email.toLowerCase() === wanted || candidate.full_name.toLowerCase() === wanted),
    );
    if (!user) return { error: `Nobody here is called ${part}` };
    ids.push(user.user_id);
  }
  if (ids.length === 0) return { error: 'Say who the message is for' };
  return { type: 'direct', to: [...new Set(ids)] };
}
