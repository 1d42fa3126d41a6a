import { measure, report } from './lib/measure';
import { ownerAuthHeader, startBaseline, startChatServer } from './lib/processes';

/**
 * POST /messages to a stream: auth, validation, rendering, a durable transaction, the reply.
 * `renderThreads` > 0 renders on a piscina pool instead of the shard thread.
 */
export async function run(renderThreads = 0): Promise<void> {
  const server = await startChatServer({ RENDER_THREADS: String(renderThreads) });
  const baseline = await startBaseline();
  try {
    const body = new URLSearchParams({ type: 'stream', to: 'general', topic: 'bench', content: 'Hello, **world**!' }).toString();
    const headers = { Authorization: ownerAuthHeader(server.dataDir), 'Content-Type': 'application/x-www-form-urlencoded' };
    const subject = await measure({ url: `${server.url}/api/v1/messages`, method: 'POST', headers, body });
    const base = await measure({ url: `${baseline.url}/api/v1/messages`, method: 'POST', headers, body });
    report(renderThreads > 0 ? `send-message (render pool of ${renderThreads})` : 'send-message', subject, base);
  } finally {
    await server.stop();
    await baseline.stop();
  }
}

if (require.main === module) void run();
