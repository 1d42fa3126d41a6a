import type { ApiClient } from './http';
import { createMember } from './fixtures';
import type { Credentials, TestServer } from './server';

export type Person = Credentials & { id: number; role: number };

/** SPEC User.role values. */
export const ROLES = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/**
 * Gives a user `role` through `PATCH /users/{id}`, as an administrator would (so the system
 * groups follow, as they do for a real role change); `api` must hold an owner's credentials.
 */
export async function setRole(api: ApiClient, userId: number, role: number): Promise<void> {
  const answer = await api.call('PATCH', `/users/${userId}`, { role });
  if (answer.status !== 200) throw new Error(`role ${role} for user ${userId}: ${answer.status} ${answer.text}`);
}

/** A new member made into `role` through the API. */
export async function createWithRole(api: ApiClient, name: string, role: number): Promise<Person> {
  const created = await createMember(api, name);
  await setRole(api, created.id, role);
  return { ...created, role };
}

/** The owner (whose credentials `api` holds) and one new person of each other role, by role name. */
export async function onePersonOfEachRole(api: ApiClient, owner: Credentials): Promise<Record<keyof typeof ROLES, Person>> {
  const ownerId = Number((await api.get('/users/me')).body['user_id']);
  return {
    owner: { ...owner, id: ownerId, role: ROLES.owner },
    admin: await createWithRole(api, 'Admin', ROLES.admin),
    moderator: await createWithRole(api, 'Moderator', ROLES.moderator),
    member: await createWithRole(api, 'Member', ROLES.member),
    guest: await createWithRole(api, 'Guest', ROLES.guest),
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

/** Deactivates a user through `DELETE /users/{id}`, as an administrator (whose credentials `api` holds) would. */
export async function deactivateUser(api: ApiClient, userId: number): Promise<void> {
  const answer = await api.call('DELETE', `/users/${userId}`);
  if (answer.status !== 200) throw new Error(`deactivate user ${userId}: ${answer.status} ${answer.text}`);
}

/** Brings a deactivated user back through `POST /users/{id}/reactivate`, as an administrator would. */
export async function reactivateUser(api: ApiClient, userId: number): Promise<void> {
  const answer = await api.post(`/users/${userId}/reactivate`);
  if (answer.status !== 200) throw new Error(`reactivate user ${userId}: ${answer.status} ${answer.text}`);
}

/** Changes the settings of the user whose credentials `client` holds, through `PATCH /settings`. */
export async function updateSettings(client: ApiClient, settings: Record<string, string | number | boolean>): Promise<void> {
  const answer = await client.call('PATCH', '/settings', settings);
  if (answer.status !== 200) throw new Error(`settings ${JSON.stringify(settings)}: ${answer.status} ${answer.text}`);
}
