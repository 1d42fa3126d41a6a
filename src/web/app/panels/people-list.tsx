/** The right column: people with presence (a dot and its words) and status, each a link to a direct conversation. */
import { useEffect, useState } from 'preact/hooks';
import type { ChatSnapshot } from '../../common/types';
import { HASH_PREFIX, type PeopleListProps } from './contracts';
import { EmojiGlyph } from './emoji-picker';
import { PRESENCE_LABELS, peopleGroups, serverNow, type PersonRow } from './presence';
import { emojiLook } from './reactions';

/** Presence ages without any event arriving, so the list re-reads the clock now and then. */
const REFRESH_MS = 30_000;

/** A person's status: its emoji and text (nothing when they set none). */
export function StatusLine({ snapshot, userId }: { snapshot: ChatSnapshot; userId: number }) {
  const status = snapshot.userStatus.get(userId);
  if (!status || (!status.status_text && !status.emoji_name)) return null;
  return (
    <span class="person-status">
      {status.emoji_name && (
        <EmojiGlyph
          look={emojiLook(
            status.reaction_type ?? 'unicode_emoji',
            status.emoji_code ?? '',
            status.emoji_name,
            snapshot.realmEmoji,
            snapshot.userSettings['emojiset'],
          )}
        />
      )}
      {status.status_text && <span class="person-status-text">{status.status_text}</span>}
    </span>
  );
}

function Person({ snapshot, row }: { snapshot: ChatSnapshot; row: PersonRow }) {
  const { user, presence } = row;
  const label = PRESENCE_LABELS[presence];
  return (
    <li class={`person person-${presence}`}>
      <a href={`${HASH_PREFIX}dm/${user.user_id}`} class="person-link">
        <span class={`presence-dot presence-${presence}`} role="img" aria-label={label} title={label} />
        <span class="person-name">
          {user.full_name}
          {user.user_id === snapshot.me.user_id && <span class="panel-muted"> (you)</span>}
        </span>
        <StatusLine snapshot={snapshot} userId={user.user_id} />
      </a>
    </li>
  );
}

export function PeopleList({ snapshot }: PeopleListProps) {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const { humans, bots } = peopleGroups(snapshot, serverNow(snapshot, nowMs));
  return (
    <aside aria-label="People" class="people-list">
      <h2 class="panel-heading" id="people-heading">
        People
      </h2>
      <ul class="people" aria-labelledby="people-heading">
        {humans.map((row) => (
          <Person key={row.user.user_id} snapshot={snapshot} row={row} />
        ))}
      </ul>
      {bots.length > 0 && (
        <>
          <h3 class="panel-subheading" id="bots-heading">
            Bots
          </h3>
          <ul class="people" aria-labelledby="bots-heading">
            {bots.map((row) => (
              <Person key={row.user.user_id} snapshot={snapshot} row={row} />
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
