import type { MarkdownContext } from '../markdown';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import { listLinkifiers } from './linkifiers';
import { realmEmojiUrl, type RealmEmojiRow } from './realm-emoji';
import type { StreamRow } from './streams';
import type { UserGroupRow } from './user-groups';
import type { UserRow } from './users';

/** Loads what the Markdown renderer needs to know about a realm (workers/markdown/context.ts). */
export function loadRenderContext(realm: Realm): MarkdownContext {
  const users = realm
    .rows<Pick<UserRow, 'id' | 'full_name' | 'email' | 'is_active'>, []>('SELECT id, full_name, email, is_active FROM users ORDER BY id')
    .all()
    .map((u) => ({ id: u.id, full_name: u.full_name, email: u.email, is_active: u.is_active === 1 }));
  const members = groupBy(
    realm.rows<{ group_id: number; user_id: number }, []>('SELECT group_id, user_id FROM user_group_members').all(),
    (row) => row.group_id,
    (row) => row.user_id,
  );
  const userGroups = realm
    .rows<Pick<UserGroupRow, 'id' | 'name'>, []>('SELECT id, name FROM user_groups WHERE is_system_group = 0 ORDER BY id')
    .all()
    .map((g) => ({ id: g.id, name: g.name, members: members.get(g.id) ?? [] }));
  const streams = realm.rows<Pick<StreamRow, 'id' | 'name'>, []>('SELECT id, name FROM streams WHERE deactivated = 0 ORDER BY id').all();
  const realmEmoji = realm
    .rows<Pick<RealmEmojiRow, 'id' | 'name' | 'file_name' | 'deactivated'>, []>(
      'SELECT id, name, file_name, deactivated FROM realm_emoji ORDER BY id',
    )
    .all()
    .map((e) => ({
      id: String(e.id),
      name: e.name,
      source_url: realmEmojiUrl(e.file_name),
      deactivated: e.deactivated === 1,
    }));
  const linkifiers = listLinkifiers(realm);
  const alertWords = groupBy(
    realm.rows<{ user_id: number; word: string }, []>('SELECT user_id, word FROM alert_words ORDER BY id').all(),
    (row) => row.user_id,
    (row) => row.word,
  );
  return { realmUrl: realm.url, users, userGroups, streams, realmEmoji, linkifiers, alertWords };
}

function groupBy<Row, Value>(rows: Row[], key: (row: Row) => number, value: (row: Row) => Value): Map<number, Value[]> {
  const groups = new Map<number, Value[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(value(row));
    else groups.set(key(row), [value(row)]);
  }
  return groups;
}

/** The realm's render context, rebuilt only when the data behind it changed. */
export const renderContextFor: (realm: Realm) => MarkdownContext = versionedCache(loadRenderContext);
