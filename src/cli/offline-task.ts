import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AdminResult, OfflineMessage, OfflineTask, OfflineTaskData } from '../wire/admin';
import { ProgressBar } from './progress';

const OFFLINE_ENTRY = path.join(__dirname, '..', '..', 'workers', 'admin', 'offline.js');

/**
 * Runs a task on the realm files in a thread (workers/admin/offline.ts: the realm code lives in
 * workers/, which src/ starts by path and never imports), drawing its progress when `label`.
 */
export function runOfflineTask(dataDir: string, externalHost: string, task: OfflineTask, label?: string): Promise<AdminResult> {
  const data: OfflineTaskData = { dataDir, externalHost, task };
  const bar = label === undefined ? null : new ProgressBar(label);
  return new Promise((resolve, reject) => {
    const worker = new Worker(OFFLINE_ENTRY, { workerData: data });
    let answered = false;
    worker.on('message', (message: OfflineMessage) => {
      if (message.type === 'progress') return bar?.update(message.done, message.total);
      answered = true;
      bar?.done();
      resolve(message.result);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      bar?.done();
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the ${task.kind} task exited with code ${code} and no answer`));
    });
  });
}
