import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './server';

export interface ManageResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the management CLI (the built form of `npm run manage --`). */
export function manage(args: string[], env: Record<string, string>): ManageResult {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'build', 'src', 'cli', 'manage.js'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A user as `manage --json` prints one. */
export interface CliUser {
  user_id: number;
  email: string;
  full_name: string;
  role: string;
  is_bot: boolean;
  is_active: boolean;
  api_key?: string;
  password?: string;
}

/** The one JSON object a `--json` command printed; throws when it failed. */
export function json<T>(result: ManageResult): T {
  if (result.status !== 0) throw new Error(`manage failed (${String(result.status)}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
