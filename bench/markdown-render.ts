/**
 * Markdown rendering on one thread: the dialect renderer (marked + extensions + sanitize-html)
 * against plain `new Marked().parse` of the same corpus with default options, in the same run.
 * Prints messages rendered per second and the ratio.
 */
import { Marked } from 'marked';
import { renderMarkdown, type MarkdownContext } from '../workers/markdown';

/** Iterations over the corpus; a few seconds in total on this machine. */
const ROUNDS = 400;
const WARM_UP_ROUNDS = 40;

const SHORT_LINES = [
  'ok',
  'sounds good :+1:',
  'lunch?',
  'I pushed the fix, see #1234',
  '@**User 3** can you take a look?',
  'brb',
  'https://github.com/example/repo/pull/42 is ready for review',
  '**important**: deploy at 5pm',
  'thanks! 🎉',
  'does `npm test` pass for you?',
];

const LONG_MESSAGES = [
  [
    'Here is the plan for today:',
    '',
    '1. Review the *open* PRs',
    '2. Deploy **staging** with `./deploy.sh --env staging`',
    '3. Ping @**User 7** and @*support*',
    '',
    '```python',
    'def speak(self):',
    '    return "hello" * 3',
    '```',
    '',
    '> Quoted from #**general>deploys**: check https://example.com/status first :smile:',
    '',
    '* item one',
    '* item two with [a link](https://example.org/docs)',
    '  * nested item',
    '',
    'Thanks! :tada:',
  ].join('\n'),
  [
    '# Incident notes',
    '',
    'Timeline (all times <time:2024-03-01T10:00:00Z>):',
    '- 10:02 alerts fired, @**User 12** paged',
    '- 10:05 rolled back #4321, see https://ci.example.com/builds/998877',
    '- 10:20 ~~root cause unknown~~ found it: a bad config push',
    '',
    '| service | status |',
    '|---|---|',
    '| api | ok |',
    '| worker | degraded |',
    '',
    '````spoiler Full log',
    '```',
    'ERROR connection refused',
    'ERROR retrying in 5s',
    '```',
    '````',
  ].join('\n'),
];

const CORPUS = [...SHORT_LINES, LONG_MESSAGES[0] ?? '', ...SHORT_LINES, LONG_MESSAGES[1] ?? ''];

const CONTEXT: MarkdownContext = {
  realmUrl: 'http://localhost:9991',
  users: Array.from({ length: 200 }, (_, id) => ({ id, full_name: `User ${id}`, email: `user${id}@example.com`, is_active: true })),
  userGroups: [{ id: 1, name: 'support', members: [1, 2, 3] }],
  streams: [{ id: 1, name: 'general' }],
  realmEmoji: [],
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/issue/{id}' }],
};

function messagesPerSecond(renderOne: (source: string) => unknown, rounds: number): number {
  const started = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) for (const source of CORPUS) renderOne(source);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return (rounds * CORPUS.length) / seconds;
}

export async function run(): Promise<void> {
  const dialect = (source: string): unknown => renderMarkdown(source, CONTEXT);
  const plain = new Marked();
  const baseline = (source: string): unknown => plain.parse(source);
  messagesPerSecond(dialect, WARM_UP_ROUNDS);
  messagesPerSecond(baseline, WARM_UP_ROUNDS);
  const subject = messagesPerSecond(dialect, ROUNDS);
  const reference = messagesPerSecond(baseline, ROUNDS);
  console.log(
    `markdown-render: ${subject.toFixed(0)} messages/s | baseline plain marked ${reference.toFixed(0)} messages/s` +
      ` | ratio ${(subject / reference).toFixed(3)}`,
  );
}

if (require.main === module) void run();
