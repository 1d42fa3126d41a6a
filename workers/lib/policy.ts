import { ROLE } from './roles';

/** Permission policy values of realm settings (openapi `realm_*_policy`). */
export const POLICY = {
  MEMBERS: 1,
  ADMINS: 2,
  FULL_MEMBERS: 3,
  MODERATORS: 4,
  EVERYONE: 5,
  NOBODY: 6,
} as const;

/**
 * Whether a user of `role` passes a realm permission policy, the public API's permission
 * levels in order: nobody, everyone (guests included), administrators, moderators, members.
 * Full members are members past the realm's waiting period; this role-only check counts every
 * member as full, and queries/realm-settings passesRealmPolicy applies the waiting period (org).
 */
export function rolePassesPolicy(role: number, policy: number): boolean {
  if (policy === POLICY.NOBODY) return false;
  if (policy === POLICY.EVERYONE) return true;
  if (role <= ROLE.ADMINISTRATOR) return true;
  if (policy === POLICY.ADMINS) return false;
  if (role === ROLE.MODERATOR) return true;
  if (policy === POLICY.MODERATORS) return false;
  if (role === ROLE.GUEST) return false;
  return policy === POLICY.MEMBERS || policy === POLICY.FULL_MEMBERS;
}

/** Administrators and moderators are exempt from the move time limits (SPEC §Limits). */
export function isModeratorOrAbove(role: number): boolean {
  return role <= ROLE.MODERATOR;
}

// Create_web_public_stream_policy has one more level than the other policies: owners only
// (the public API's value 7); register's can_create_* and the stream rules share this.
export const OWNERS_ONLY_POLICY = 7;

export function rolePassesStreamPolicy(role: number, policy: number): boolean {
  if (policy === OWNERS_ONLY_POLICY) return role === ROLE.OWNER;
  return rolePassesPolicy(role, policy);
}
