import { measure, report } from './lib/measure';
import { ownerAuthHeader, startBaseline, startChatServer } from './lib/processes';

/** POST /messages to a stream: auth, validation, a durable transaction, the reply. */
export async function run(): Promise<void> {
  const server = await startChatServer();
  const baseline = await startBaseline();
  try {
    const body = new URLSearchParams({ type: 'stream', to: 'general', topic: 'bench', content: 'Hello, **world**!' }).toString();
    const headers = { Authorization: ownerAuthHeader(server.dataDir), 'Content-Type': 'application/x-www-form-urlencoded' };
    const subject = await measure({ url: `${server.url}/api/v1/messages`, method: 'POST', headers, body });
    const base = await measure({ url: `${baseline.url}/api/v1/messages`, method: 'POST', headers, body });
    report('send-message', subject, base);
  } finally {
    await server.stop();
    await baseline.stop();
  }
}

if (require.main === module) void run();
