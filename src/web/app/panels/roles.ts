/** User roles as the server numbers them (SPEC User.role), and the words a person reads. */
export const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;

export const ROLE_CHOICES: readonly { value: number; label: string }[] = [
  { value: ROLE.OWNER, label: 'Owner' },
  { value: ROLE.ADMINISTRATOR, label: 'Administrator' },
  { value: ROLE.MODERATOR, label: 'Moderator' },
  { value: ROLE.MEMBER, label: 'Member' },
  { value: ROLE.GUEST, label: 'Guest' },
];

export function roleLabel(role: number): string {
  return ROLE_CHOICES.find((choice) => choice.value === role)?.label ?? `Role ${role}`;
}

export function isAdministrator(user: { role: number }): boolean {
  return user.role <= ROLE.ADMINISTRATOR;
}

/** Only owners may make or unmake owners (the server refuses otherwise), so others are not offered it. */
export function assignableRoles(me: { role: number }): readonly { value: number; label: string }[] {
  return me.role === ROLE.OWNER ? ROLE_CHOICES : ROLE_CHOICES.filter((choice) => choice.value !== ROLE.OWNER);
}
