import { shardIndexFor } from '../../src/realm/router';
import { ApiClient } from './http';
import { manage } from './manage';
import type { TestServer } from './server';

/**
 * A new realm whose shard (of `shardCount`) is not the default realm's, made with the
 * management CLI, and a client of it holding its owner's credentials.
 */
export function realmOnAnotherShard(server: TestServer, shardCount: number): ApiClient {
  const defaultShard = shardIndexFor('default', shardCount);
  let subdomain = '';
  for (let i = 0; subdomain === ''; i++) if (shardIndexFor(`r${i}`, shardCount) !== defaultShard) subdomain = `r${i}`;
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const created = manage(['create-realm', '--subdomain', subdomain, '--name', 'Other', '--owner-email', `owner@${subdomain}.test`], env);
  if (created.status !== 0) throw new Error(`create-realm ${subdomain}: ${created.stderr}`);
  // The owner's credentials come out as the [api] section of an ini file.
  const ini = (key: string): string => new RegExp(`^${key}=(.*)$`, 'm').exec(created.stdout)?.[1] ?? '';
  return new ApiClient(server.baseUrl, { email: ini('email'), key: ini('key') }, `${subdomain}.localhost:${server.port}`);
}
