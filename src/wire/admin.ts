/**
 * The admin channel's requests and answers (issue 23 "Management CLI"): the CLI sends them to
 * the running server over its admin socket (src/admin/), the front end forwards them to the
 * shard that owns the realm (workers/admin/), and without a server the CLI runs the same
 * commands on the realm files in a thread of its own. Both sides share these types.
 */

/** Commands that read or change one realm; `realm` names it. */
export const ADMIN_COMMANDS = [
  'create-user',
  'change-role',
  'deactivate-user',
  'reactivate-user',
  'reset-api-key',
  'change-password',
  'list-users',
  'deactivate-realm',
  'reactivate-realm',
  'restore',
] as const;

export type AdminCommand = (typeof ADMIN_COMMANDS)[number];

export function isAdminCommand(name: string): name is AdminCommand {
  return (ADMIN_COMMANDS as readonly string[]).includes(name);
}

/** A command's options, as the CLI parsed them (strings and flags only). */
export type AdminArgs = Record<string, string | boolean>;

export interface AdminRequest {
  command: AdminCommand;
  realm: string;
  args: AdminArgs;
}

/** Why a command failed, for the exit code and the caller's decisions (move-realm retries on `served`). */
export type AdminErrorCode = 'bad-argument' | 'no-such-realm' | 'no-such-user' | 'refused' | 'served' | 'damaged' | 'failed';

export type AdminResult = { ok: true; result: Record<string, unknown> } | { ok: false; code: AdminErrorCode; message: string };

/** The admin socket's file in the data directory: readable and writable by the server's user only. */
export const ADMIN_SOCKET_NAME = 'admin.sock';

/** A command for the shard that owns `request.realm` (src/wire/protocol.ts ToShard). */
export interface AdminFrame {
  kind: 'admin';
  id: number;
  request: AdminRequest;
}

export interface AdminResultFrame {
  kind: 'admin-result';
  id: number;
  result: AdminResult;
  /** Held by the front end like an answer (src/wire/protocol.ts DurableAfter). */
  durableAfter?: number;
}

/**
 * Work the CLI does in a thread of its own on the realm files (workers/admin/offline.ts):
 * commands when no server runs, and the file commands that need none (check, export, import).
 */
export type OfflineTask =
  | { kind: 'command'; request: AdminRequest }
  | { kind: 'check' }
  | { kind: 'export'; realm: string; to: string }
  | { kind: 'import'; realm: string; from: string };

export interface OfflineTaskData {
  dataDir: string;
  externalHost: string;
  task: OfflineTask;
}

/** What the thread posts: progress while it works (for the progress bar), then one result. */
export type OfflineMessage = { type: 'progress'; done: number; total: number } | { type: 'result'; result: AdminResult };
