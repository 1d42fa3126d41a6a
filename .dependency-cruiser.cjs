/**
 * The house's floors (DESIGN.md, STYLE.md §2.1), checked by `npm test`: src/ (HTTP) → src/wire/
 * ← workers/; in a shard, dispatch → route table → endpoints → actions → queries → realm and
 * db. Nothing imports back up, type-only imports included (tsPreCompilationDeps).
 */
const SERVING = '^workers/(dispatch|routes)\\.ts$|^workers/(endpoints|actions|actors)/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles, type-only ones included.', from: {}, to: { circular: true } },
    {
      name: 'web-client-imports-only-web-client',
      severity: 'error',
      comment: 'The page runs in a browser: src/web/ imports its own modules, packages and the build\'s virtual: modules, nothing of the server.',
      from: { path: '^src/web/' },
      to: { pathNot: '^(src/web/|virtual:)|(^|/)node_modules/' },
    },
    {
      name: 'nothing-imports-web-client',
      severity: 'error',
      comment: 'The server reads the built page from build/web/; no server code imports the page\'s sources.',
      from: { pathNot: '^src/web/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'front-end-imports-no-workers',
      severity: 'error',
      comment: 'The front end starts shard and storage threads by file path; it never imports their code.',
      from: { path: '^src/' },
      to: { path: '^workers/' },
    },
    {
      name: 'workers-import-only-src-wire',
      severity: 'error',
      comment: 'Shards share only the frame protocol and realm-name helpers of src/wire/ with the front end.',
      from: { path: '^workers/' },
      to: { path: '^src/', pathNot: '^src/wire/' },
    },
    {
      name: 'realm-imports-no-serving-layer',
      severity: 'error',
      comment: 'workers/realm.ts is state (db, statements, group commit, outbox, actors), below every layer that serves requests.',
      from: { path: '^workers/realm\\.ts$' },
      to: { path: `${SERVING}|^workers/queries/` },
    },
    {
      name: 'queries-import-no-actions',
      severity: 'error',
      comment: 'Reads sit below the writes and the handlers that use them.',
      from: { path: '^workers/queries/' },
      to: { path: SERVING },
    },
    {
      name: 'actions-import-no-endpoints',
      severity: 'error',
      comment: 'Actions sit below the handlers, the route table and the actors that call them.',
      from: { path: '^workers/actions/' },
      to: { path: '^workers/(dispatch|routes)\\.ts$|^workers/(endpoints|actors)/' },
    },
    {
      name: 'endpoints-import-no-route-table',
      severity: 'error',
      comment: 'Handlers sit below the route table and the dispatcher.',
      from: { path: '^workers/endpoints/' },
      to: { path: '^workers/(dispatch|routes)\\.ts$|^workers/actors/' },
    },
    {
      name: 'route-table-imports-no-dispatch',
      severity: 'error',
      from: { path: '^workers/routes\\.ts$' },
      to: { path: '^workers/dispatch\\.ts$' },
    },
    {
      name: 'helpers-import-no-serving-layer',
      severity: 'error',
      comment: 'Shared helpers (lib, markdown, db, events, render, schemas) serve every layer and import none that serves requests.',
      from: { path: '^workers/(lib|markdown|db|events|render|schemas)/' },
      to: { path: SERVING },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(build|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // src/web/ is Preact: its components are .tsx files imported without their extension.
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
