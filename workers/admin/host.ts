import type { AdminErrorCode } from '../../src/wire/admin';
import type { Realm } from '../realm';

/**
 * Where admin commands run: a running server's shard (workers/shard.ts) or, with no server, a
 * thread of the CLI that opens the realm files itself (workers/admin/offline.ts). The commands
 * are the same; only opening, closing and serving differ.
 */
export interface AdminHost {
  readonly dataDir: string;
  /** True in a running server: clients are served, so a restore needs `--force`. */
  readonly serving: boolean;
  /** The realm, opened as a shard opens it; null when it has no file. */
  realm(name: string): Realm | null;
  /**
   * Stops serving the realm (its requests get 503 until `resume`) and closes it: its parked
   * polls are answered and its queues saved into the file that is about to be replaced.
   */
  suspend(name: string): Promise<void>;
  resume(name: string): void;
}

/** A command's refusal, with the code the CLI turns into its message and exit status. */
export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
  }
}
