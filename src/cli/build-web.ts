/**
 * Builds the web client (src/web/) with esbuild: the page bundles into build/web/static/, and
 * the client's unit tests (test/web/) into build/test/web/, where tap finds them.
 * (A first cut: hashing, compression and the HTML pages come next.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..', '..');
const WEB = join(ROOT, 'src', 'web');
const ENTRIES: Record<string, string> = { app: join(WEB, 'app', 'main.tsx'), login: join(WEB, 'login', 'main.ts') };

/**
 * `import { EMOJI_TABLE } from 'virtual:emoji-table'` gives the page the server's emoji names
 * (code, then names, canonical first), read as text from the generated table rather than
 * imported, so src/web/ shares data with the shards but no code.
 */
const emojiTable: Plugin = {
  name: 'emoji-table',
  setup(build) {
    build.onResolve({ filter: /^virtual:emoji-table$/ }, () => ({ path: 'emoji-table', namespace: 'virtual' }));
    build.onLoad({ filter: /^emoji-table$/, namespace: 'virtual' }, () => {
      const source = readFileSync(join(ROOT, 'workers', 'markdown', 'emoji-table.ts'), 'utf8');
      const table = /`([^`]*)`/.exec(source)?.[1] ?? '';
      return { contents: `export const EMOJI_TABLE = ${JSON.stringify(table)};`, loader: 'js' };
    });
  },
};

async function buildPages(): Promise<void> {
  const entryPoints = Object.fromEntries(Object.entries(ENTRIES).filter(([, file]) => existsSync(file)));
  if (Object.keys(entryPoints).length === 0) return;
  await build({
    entryPoints,
    outdir: join(ROOT, 'build', 'web', 'static'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome120', 'firefox120'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(WEB, 'tsconfig.json'),
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file', '.png': 'file', '.svg': 'file' },
    plugins: [emojiTable],
    logLevel: 'warning',
  });
}

async function buildUnitTests(): Promise<void> {
  const dir = join(ROOT, 'test', 'web');
  const tests = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.test.ts')) : [];
  if (tests.length === 0) return;
  await build({
    entryPoints: tests.map((name) => join(dir, name)),
    outdir: join(ROOT, 'build', 'test', 'web'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(WEB, 'tsconfig.json'),
    sourcemap: true,
    plugins: [emojiTable],
    logLevel: 'warning',
  });
}

void Promise.all([buildPages(), buildUnitTests()]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
