import type { ApiClient } from './http';
import { createMember } from './fixtures';
import type { RealmFile } from './realm-file';
import type { Credentials, TestServer } from './server';

export type Person = Credentials & { id: number; role: number };

/** SPEC User.role values. */
export const ROLES = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** A member made into `role` in the realm file (role changes are another endpoint's business). */
export async function createWithRole(api: ApiClient, file: RealmFile, name: string, role: number): Promise<Person> {
  const created = await createMember(api, name);
  file.run('UPDATE users SET role = ? WHERE id = ?', role, created.id);
  return { ...created, role };
}

/** The owner (whose credentials `api` holds) and one new person of each other role, by role name. */
export async function onePersonOfEachRole(api: ApiClient, file: RealmFile, owner: Credentials): Promise<Record<keyof typeof ROLES, Person>> {
  const ownerId = Number((await api.get('/users/me')).body['user_id']);
  return {
    owner: { ...owner, id: ownerId, role: ROLES.owner },
    admin: await createWithRole(api, file, 'Admin', ROLES.admin),
    moderator: await createWithRole(api, file, 'Moderator', ROLES.moderator),
    member: await createWithRole(api, file, 'Member', ROLES.member),
    guest: await createWithRole(api, file, 'Guest', ROLES.guest),
  };
}

/** The API address of a user whose real email is hidden (SPEC User.email): `user<id>@<realm host>`. */
export function hiddenAddress(id: number): string {
  return `user${id}@localhost`;
}

/** SPEC PATCH /settings email_address_visibility: the lowest role each value admits (0: none). */
export const MAX_ROLE_SEEING: Record<number, number> = { 1: 600, 2: 400, 3: 200, 4: 0, 5: 300 };

/**
 * The API path (`/settings/email_confirm/<token>`) of a user's first pending email change, from
 * the log line that stands in for the confirmation email (workers/actions/settings.ts).
 */
export async function emailConfirmationPath(server: TestServer, userId: number): Promise<string> {
  const line = await server.logLine((l) => l.includes('"confirmation_url"') && l.includes(`"user_id":${userId},`));
  return new URL((JSON.parse(line) as { confirmation_url: string }).confirmation_url).pathname.replace('/api/v1', '');
}
