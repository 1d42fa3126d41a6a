/** User roles (SPEC §Resources, User.role). */
export const ROLE = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

export type Role = (typeof ROLE)[keyof typeof ROLE];

export function isAdminRole(role: number): boolean {
  return role <= ROLE.ADMINISTRATOR;
}

/**
 * The system groups every realm has, most inclusive last; each includes the one before it as
 * a subgroup (so `@role:administrators` contains the owners). `@role:internet` and
 * `@role:nobody` have special meanings and no role members.
 */
export const SYSTEM_GROUPS = [
  { name: '@role:owners', description: 'Owners of this organization', roles: [ROLE.OWNER] },
  { name: '@role:administrators', description: 'Administrators of this organization, including owners', roles: [ROLE.ADMINISTRATOR] },
  { name: '@role:moderators', description: 'Moderators of this organization, including administrators', roles: [ROLE.MODERATOR] },
  { name: '@role:fullmembers', description: 'Members of this organization, not including new accounts and guests', roles: [] },
  { name: '@role:members', description: 'Members of this organization, not including guests', roles: [ROLE.MEMBER] },
  { name: '@role:everyone', description: 'Everyone in this organization, including guests', roles: [ROLE.GUEST] },
  { name: '@role:internet', description: 'Everyone on the Internet', roles: [] },
] as const;

export const NOBODY_GROUP = { name: '@role:nobody', description: 'Nobody' } as const;

export function systemGroupNameForRole(role: number): string | null {
  const group = SYSTEM_GROUPS.find((g) => (g.roles as readonly number[]).includes(role));
  return group ? group.name : null;
}

// The groups `@role:fullmembers` is computed from (actions/full-members.ts).
export const FULL_MEMBERS_GROUP = '@role:fullmembers';
export const MEMBERS_GROUP = '@role:members';
