/**
 * `npm run bench [scenario ...]`: runs the named scenarios (all by default). Each prints its
 * figure and the ratio against a baseline measured in the same run.
 */
const SCENARIOS: Record<string, () => Promise<{ run(args?: readonly string[]): Promise<void> }>> = {
  'send-message': async () => {
    const scenario = await import('./send-message');
    return { run: () => scenario.run() };
  },
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
  // Issue 24: capacity under a realistic load
  mixed: () => import('./mixed'),
  'send-stream-large': () => import('./send-stream-large'),
  'reads-under-writes': () => import('./reads-under-writes'),
  register: () => import('./register'),
};

async function main(): Promise<void> {
  // Scenario names first, then options for them (`npm run bench mixed -- --steps 500,1000`).
  const firstOption = process.argv.findIndex((arg, i) => i >= 2 && arg.startsWith('--'));
  const wanted = process.argv.slice(2, firstOption < 0 ? undefined : firstOption);
  const args = firstOption < 0 ? [] : process.argv.slice(firstOption);
  const names = wanted.length > 0 ? wanted : Object.keys(SCENARIOS).filter((name) => name !== 'mixed');
  for (const name of names) {
    const load = SCENARIOS[name];
    if (!load) {
      console.error(`unknown scenario '${name}'; known: ${Object.keys(SCENARIOS).join(', ')}`);
      process.exitCode = 2;
      return;
    }
    await (await load()).run(args);
  }
}

void main();
