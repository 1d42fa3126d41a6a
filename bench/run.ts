/**
 * `npm run bench [scenario ...]`: runs the named scenarios (all by default). Each prints its
 * figure and the ratio against a baseline measured in the same run.
 */
const SCENARIOS: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  'send-message': () => import('./send-message'),
  'send-message-render-pool': async () => {
    const scenario = await import('./send-message');
    return { run: () => scenario.run(1) };
  },
  'send-stream': () => import('./send-stream'),
  'fetch-narrow': () => import('./fetch-narrow'),
  'get-own-user': () => import('./get-own-user'),
  'frame-codec': () => import('./frame-codec'),
  'markdown-render': () => import('./markdown-render'),
  fanout: () => import('./fanout'),
  'parked-queues': () => import('./parked-queues'),
  // Issue 9's hot paths
  presence: () => import('./presence'),
  uploads: () => import('./uploads'),
  'get-users': () => import('./get-users'),
  // Issue 10: the web client in a real browser
  'web-live': () => import('./web-live'),
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = wanted.length > 0 ? wanted : Object.keys(SCENARIOS);
  for (const name of names) {
    const load = SCENARIOS[name];
    if (!load) {
      console.error(`unknown scenario '${name}'; known: ${Object.keys(SCENARIOS).join(', ')}`);
      process.exitCode = 2;
      return;
    }
    await (await load()).run();
  }
}

void main();
