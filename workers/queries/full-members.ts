import type { Realm } from '../realm';
import { realmSettings } from './realm-settings';

const DAY_S = 24 * 60 * 60;

/** The id of the system group named `name` (on the user_groups name index). */
export function systemGroupIdNamed(realm: Realm, name: string): number | null {
  const row = realm
    .rows<{ id: number }, [string]>('SELECT id FROM user_groups WHERE name = ? COLLATE NOCASE AND is_system_group = 1')
    .get(name);
  return row?.id ?? null;
}

/**
 * The latest `date_joined` (seconds) a member may have to be a full member: the account is at
 * least the realm's `waiting_period_threshold` days old (the same rule as passesRealmPolicy).
 */
export function fullMemberJoinCutoff(realm: Realm): number {
  return Math.floor(realm.clock.now() / 1000) - realmSettings(realm).waiting_period_threshold * DAY_S;
}

/**
 * Who should be a direct member of `@role:fullmembers`: the direct members of `@role:members`
 * (role member, bots and deactivated accounts included, as the public API counts them) whose
 * account passed the waiting period. Walks the members group's primary key.
 */
export function qualifyingFullMemberIds(realm: Realm, membersGroupId: number): number[] {
  const rows = realm
    .rows<{ id: number }, [number, number]>(
      `SELECT m.user_id AS id FROM user_group_members m JOIN users u ON u.id = m.user_id
       WHERE m.group_id = ? AND u.date_joined <= ? ORDER BY m.user_id`,
    )
    .all(membersGroupId, fullMemberJoinCutoff(realm));
  return rows.map((row) => row.id);
}
