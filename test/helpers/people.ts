import type { ApiClient } from './http';
import { createMember } from './fixtures';
import type { RealmFile } from './realm-file';
import type { Credentials } from './server';

export type Person = Credentials & { id: number; role: number };

/** SPEC User.role values. */
export const ROLES = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** A member made into `role` in the realm file (role changes are another endpoint's business). */
export async function createWithRole(api: ApiClient, file: RealmFile, name: string, role: number): Promise<Person> {
  const created = await createMember(api, name);
  file.run('UPDATE users SET role = ? WHERE id = ?', role, created.id);
  return { ...created, role };
}

/** The API address of a user whose real email is hidden (SPEC User.email): `user<id>@<realm host>`. */
export function hiddenAddress(id: number): string {
  return `user${id}@localhost`;
}

/** SPEC PATCH /settings email_address_visibility: the lowest role each value admits (0: none). */
export const MAX_ROLE_SEEING: Record<number, number> = { 1: 600, 2: 400, 3: 200, 4: 0, 5: 300 };
