/** The few API calls a scenario makes to set itself up (global fetch; not measured). */
export async function apiCall(
  baseUrl: string,
  auth: string,
  method: string,
  path: string,
  params: Record<string, string | number | boolean | object> = {},
): Promise<Record<string, unknown>> {
  const encoded = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ).toString();
  const url = `${baseUrl}/api/v1${path}` + (method === 'GET' && encoded ? `?${encoded}` : '');
  const init: RequestInit = { method, headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' } };
  if (method !== 'GET') init.body = encoded;
  const res = await fetch(url, init);
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export function basicAuth(email: string, key: string): string {
  return 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');
}

/** Creates `count` members (POST /users, then their keys) and returns their IDs. */
export async function createMembers(baseUrl: string, ownerAuth: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-member-${i}@example.com`;
    const created = await apiCall(baseUrl, ownerAuth, 'POST', '/users', {
      email,
      password: `pw-${i}-bench`,
      full_name: `Bench Member ${i}`,
    });
    ids.push(Number(created['user_id']));
  }
  return ids;
}

/** Members as `createMembers` made them, each with the Authorization header of their own key. */
export async function memberAuthHeaders(baseUrl: string, count: number): Promise<string[]> {
  const headers: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-member-${i}@example.com`;
    const fetched = await apiCall(baseUrl, '', 'POST', '/fetch_api_key', { username: email, password: `pw-${i}-bench` });
    headers.push(basicAuth(email, String(fetched['api_key'])));
  }
  return headers;
}

/**
 * The long-poll scenarios' audience: `users` accounts (the owner and new members) all on
 * 'bench stream'; returns each one's Authorization header, the owner's first.
 */
export async function streamAudience(baseUrl: string, ownerAuth: string, users: number): Promise<string[]> {
  const members = await createMembers(baseUrl, ownerAuth, users - 1);
  const auths = [ownerAuth, ...(await memberAuthHeaders(baseUrl, users - 1))];
  await apiCall(baseUrl, ownerAuth, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bench stream' }], principals: members });
  return auths;
}
