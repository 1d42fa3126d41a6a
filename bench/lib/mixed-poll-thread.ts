import { parentPort, workerData } from 'node:worker_threads';
import { PollingCrowd, type FromPolls, type PollThreadData, type ToPolls } from './mixed-polls';

/** The polling thread of `mixed` (bench/lib/mixed-polls.ts): connects, says so, then obeys. */
const port = parentPort;
if (!port) throw new Error('mixed-poll-thread runs as a worker thread');
const crowd = new PollingCrowd(workerData as PollThreadData, (message: FromPolls) => port.postMessage(message));
port.on('message', (message: ToPolls) => crowd.handle(message));
port.on('close', () => crowd.close());
void crowd.connect().then(() => port.postMessage({ type: 'ready' } satisfies FromPolls));
