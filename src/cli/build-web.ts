/**
 * Builds the web client (src/web/) with esbuild into build/web/, which the front end serves
 * (src/http/static.ts): hashed bundles and assets under static/, the HTML pages with their
 * references rewritten to those hashed names, a `.gz` and `.br` beside every compressible
 * file, and manifest.json. The client's unit tests (test/web/) go to build/test/web/ for tap.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';
import { EMOJI_IMAGE_SETS, EMOJI_URL_PREFIX, emojiSetSegment, type EmojiImageSetName } from '../http/emoji-images';

const ROOT = resolve(__dirname, '..', '..', '..');
const WEB = join(ROOT, 'src', 'web');
const OUT = join(ROOT, 'build', 'web');
const STATIC_URL = '/static/';
const ENTRIES: Record<string, string> = { app: join(WEB, 'app', 'main.tsx'), login: join(WEB, 'login', 'main.ts') };
// woff and woff2 are compressed formats already; the rest gains from gzip and brotli.
const COMPRESSIBLE = /\.(html|js|css|svg|json|map|txt|ttf|otf|eot)$/;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** What a page's entry became: its script, its stylesheet, and the chunks its script imports statically. */
interface EntryOutput {
  js: string;
  css: string | null;
  preloads: string[];
}

interface WebManifest {
  /** `app.js` → `/static/app-HASH.js`, and so on for each entry's script and stylesheet. */
  files: Record<string, string>;
  /** For each page (`index`, `login`): every file its first load fetches, as URLs. */
  pages: Record<string, string[]>;
}

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

/**
 * `import { EMOJI_IMAGE_BASES } from 'virtual:emoji-images'` gives the page, for each emoji set
 * whose images are installed, the URL its images live under (src/http/emoji-images.ts), the
 * package's version included, read from the same package.json the front end reads.
 */
const emojiImages: Plugin = {
  name: 'emoji-images',
  setup(build) {
    build.onResolve({ filter: /^virtual:emoji-images$/ }, () => ({ path: 'emoji-images', namespace: 'virtual' }));
    build.onLoad({ filter: /^emoji-images$/, namespace: 'virtual' }, () => {
      const bases: Record<string, string> = {};
      for (const set of Object.keys(EMOJI_IMAGE_SETS) as EmojiImageSetName[]) {
        const segment = emojiSetSegment(set);
        if (segment !== null) bases[set] = `${EMOJI_URL_PREFIX}${segment}/`;
      }
      return { contents: `export const EMOJI_IMAGE_BASES = ${JSON.stringify(bases)};`, loader: 'js' };
    });
  },
};

function toUrl(outputPath: string): string {
  return STATIC_URL + relative(join(OUT, 'static'), join(ROOT, outputPath)).split(sep).join('/');
}

async function bundleEntries(): Promise<Map<string, EntryOutput>> {
  const entryPoints = Object.fromEntries(Object.entries(ENTRIES).filter(([, file]) => existsSync(file)));
  const outputs = new Map<string, EntryOutput>();
  if (Object.keys(entryPoints).length === 0) return outputs;
  const result = await build({
    entryPoints,
    outdir: join(OUT, 'static'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    publicPath: STATIC_URL,
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    target: ['chrome120', 'firefox120'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(WEB, 'tsconfig.json'),
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file', '.png': 'file', '.svg': 'file' },
    metafile: true,
    absWorkingDir: ROOT,
    plugins: [emojiTable, emojiImages],
    logLevel: 'warning',
  });
  const nameBySource = new Map(Object.entries(entryPoints).map(([name, file]) => [relative(ROOT, file).split(sep).join('/'), name]));
  for (const [outputPath, output] of Object.entries(result.metafile.outputs)) {
    const name = output.entryPoint === undefined ? undefined : nameBySource.get(output.entryPoint);
    if (name === undefined) continue;
    outputs.set(name, {
      js: toUrl(outputPath),
      css: output.cssBundle === undefined ? null : toUrl(output.cssBundle),
      preloads: staticChunks(result.metafile, outputPath).map(toUrl),
    });
  }
  return outputs;
}

/** The chunks an output imports without `import()`, transitively: the browser needs them all before it runs. */
function staticChunks(metafile: Metafile, outputPath: string): string[] {
  const found = new Set<string>();
  const visit = (path: string): void => {
    for (const imported of metafile.outputs[path]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.external || found.has(imported.path)) continue;
      found.add(imported.path);
      visit(imported.path);
    }
  };
  visit(outputPath);
  return [...found];
}

/**
 * Each src/web/pages/<name>.html with `/static/<entry>.js` and `/static/<entry>.css` pointed at
 * the hashed files, and a modulepreload for each chunk the script imports statically (so the
 * browser fetches them in parallel rather than after the script). Returns the files each page loads.
 */
function writePages(entries: Map<string, EntryOutput>, manifest: WebManifest): void {
  const pagesDir = join(WEB, 'pages');
  const pages = existsSync(pagesDir) ? readdirSync(pagesDir).filter((name) => name.endsWith('.html')) : [];
  for (const page of pages) {
    const loads: string[] = [];
    const preloads: string[] = [];
    const missing: string[] = [];
    let html = readFileSync(join(pagesDir, page), 'utf8').replace(
      /\/static\/([\w-]+)\.(js|css)(?=["'])/g,
      (reference, name: string, ext: string) => {
        const entry = entries.get(name);
        const hashed = ext === 'js' ? entry?.js : entry?.css;
        if (hashed === undefined || hashed === null) {
          missing.push(reference);
          return reference;
        }
        loads.push(hashed);
        if (ext === 'js') preloads.push(...(entry?.preloads ?? []));
        return hashed;
      },
    );
    if (missing.length > 0) throw new Error(`src/web/pages/${page} refers to ${missing.join(', ')}, which the build does not produce`);
    loads.push(...preloads);
    if (preloads.length > 0) {
      const links = preloads.map((url) => `<link rel="modulepreload" href="${url}">`).join('\n    ');
      html = html.replace(/(\s*)<\/head>/, `\n    ${links}$1</head>`);
    }
    writeFileSync(join(OUT, page), html);
    manifest.pages[basename(page, '.html')] = loads;
  }
  // The site's icon keeps its well-known name: browsers ask for it by that name.
  for (const file of existsSync(pagesDir) ? readdirSync(pagesDir).filter((name) => name.endsWith('.svg')) : []) {
    copyFileSync(join(pagesDir, file), join(OUT, file));
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** gzip level 9 and brotli quality 11 beside every compressible file, compressed in parallel on libuv's pool. */
async function precompress(): Promise<void> {
  const files = listFiles(OUT).filter((file) => COMPRESSIBLE.test(file));
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(file);
      const [gz, br] = await Promise.all([
        gzipAsync(bytes, { level: 9 }),
        brotliAsync(bytes, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            [zlibConstants.BROTLI_PARAM_MODE]: /\.(ttf|otf|eot)$/.test(file)
              ? zlibConstants.BROTLI_MODE_FONT
              : zlibConstants.BROTLI_MODE_TEXT,
          },
        }),
      ]);
      await Promise.all([writeFile(file + '.gz', gz), writeFile(file + '.br', br)]);
    }),
  );
}

async function buildPages(): Promise<void> {
  // Hashed names change with every edit: start empty so stale files never pile up.
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'static'), { recursive: true });
  const entries = await bundleEntries();
  const manifest: WebManifest = { files: {}, pages: {} };
  for (const [name, entry] of entries) {
    manifest.files[`${name}.js`] = entry.js;
    if (entry.css !== null) manifest.files[`${name}.css`] = entry.css;
  }
  writePages(entries, manifest);
  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  await precompress();
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
    plugins: [emojiTable, emojiImages],
    logLevel: 'warning',
  });
}

void Promise.all([buildPages(), buildUnitTests()]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
