import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StorageTask, StorageTaskResult } from '../wire/storage-task';

const STORAGE_TASK_ENTRY = path.join(__dirname, '..', '..', 'workers', 'storage-task.js');

/** Runs one StorageTask on a short-lived thread (the realm-file code lives in workers/). */
export function runStorageTask(task: StorageTask): Promise<StorageTaskResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(STORAGE_TASK_ENTRY, { workerData: task });
    let answered = false;
    worker.once('message', (result: StorageTaskResult) => {
      answered = true;
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`storage task '${task.kind}' exited with code ${code} and no answer`));
    });
  });
}
