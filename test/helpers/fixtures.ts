import type { ApiClient } from './http';
import type { Credentials } from './server';

let counter = 0;

export interface Member extends Credentials {
  id: number;
  password: string;
  fullName: string;
}

/** Creates a member through the API (POST /users) and fetches their key (POST /fetch_api_key). */
export async function createMember(admin: ApiClient, name = 'Member'): Promise<Member> {
  counter++;
  const email = `${name.toLowerCase().replace(/\W+/g, '')}${counter}-${process.pid}@example.com`;
  const password = `pw-${counter}-secret`;
  const fullName = `${name} ${counter}`;
  const created = await admin.post('/users', { email, password, full_name: fullName });
  if (created.status !== 200) throw new Error(`create user failed: ${created.text}`);
  const fetched = await admin.as(null).post('/fetch_api_key', { username: email, password });
  if (fetched.status !== 200) throw new Error(`fetch_api_key failed: ${fetched.text}`);
  return { email, key: String(fetched.body['api_key']), id: Number(created.body['user_id']), password, fullName };
}

/** GET /messages/{id} as `client` sees it: the `message` object (undefined on an error). */
export async function fetchMessage(client: ApiClient, id: unknown, applyMarkdown = true): Promise<Record<string, unknown>> {
  const res = await client.get(`/messages/${String(id)}`, { apply_markdown: applyMarkdown });
  return res.body['message'] as Record<string, unknown>;
}

/** Changes realm settings through `PATCH /realm`, as the administrator whose credentials `admin` holds would. */
export async function updateRealm(admin: ApiClient, settings: Record<string, string | number | boolean | object>): Promise<void> {
  const answer = await admin.call('PATCH', '/realm', settings);
  if (answer.status !== 200) throw new Error(`realm settings ${JSON.stringify(settings)}: ${answer.status} ${answer.text}`);
}

/** Creates a generic bot through `POST /bots` as the user whose credentials `creator` holds, and returns its credentials. */
export async function createBot(creator: ApiClient, shortName: string): Promise<Credentials & { id: number }> {
  const created = await creator.post('/bots', { full_name: `${shortName} bot`, short_name: shortName });
  if (created.status !== 200) throw new Error(`create bot failed: ${created.text}`);
  const id = Number(created.body['user_id']);
  const user = (await creator.get(`/users/${id}`)).body['user'] as { email: string };
  return { id, email: user.email, key: String(created.body['api_key']) };
}
