import { parentPort, workerData } from 'node:worker_threads';
import type { StorageTask, StorageTaskResult } from '../src/wire/storage-task';
import { realmFile } from '../src/wire/realm-names';
import { createRealm, RealmExistsError } from './db/create-realm';
import { openRealmDb } from './db/open';

/** Thread entry for one StorageTask (src/wire/storage-task.ts): runs it and posts the result. */
async function run(task: StorageTask): Promise<StorageTaskResult> {
  switch (task.kind) {
    case 'create-realm': {
      const realm = await createRealm(task.dataDir, {
        subdomain: task.subdomain,
        name: task.name,
        ownerEmail: task.ownerEmail,
        ownerName: task.ownerName,
      });
      return { ok: true, owner: { email: realm.ownerEmail, key: realm.ownerApiKey, password: realm.ownerPassword } };
    }
    case 'read-owner': {
      const db = openRealmDb(realmFile(task.dataDir, task.subdomain), { readonly: true });
      try {
        const owner = db
          .prepare<[], { email: string; api_key: string }>(
            'SELECT email, api_key FROM users WHERE role = 100 AND is_active = 1 ORDER BY id LIMIT 1',
          )
          .get();
        return { ok: true, owner: owner ? { email: owner.email, key: owner.api_key } : null };
      } finally {
        db.close();
      }
    }
  }
}

run(workerData as StorageTask).then(
  (result) => parentPort?.postMessage(result),
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    const result: StorageTaskResult = { ok: false, error: err instanceof RealmExistsError ? 'realm-exists' : 'failed', message };
    parentPort?.postMessage(result);
  },
);
