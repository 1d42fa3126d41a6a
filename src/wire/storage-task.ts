/**
 * Work on realm files that the front end and the CLI need done outside a running shard
 * (creating a realm, reading the default realm's owner). src/ never imports workers/: it starts
 * workers/storage-task.js as a thread with one of these tasks and reads its one answer.
 */
export type StorageTask =
  | {
      kind: 'create-realm';
      dataDir: string;
      subdomain: string;
      name: string;
      ownerEmail: string;
      ownerName: string;
    }
  | { kind: 'read-owner'; dataDir: string; subdomain: string };

export interface OwnerCredentials {
  email: string;
  key: string;
  /** Only when the realm was just created: afterwards only its hash exists. */
  password?: string;
}

export type StorageTaskResult =
  { ok: true; owner: OwnerCredentials | null } | { ok: false; error: 'realm-exists' | 'failed'; message: string };
