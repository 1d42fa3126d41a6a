// Lint rules that hold the house conventions (run by `npm test` through `npm run lint`).
// Type-aware: each file is checked with the TypeScript project it belongs to (the server and
// its tests, or the web page and its unit tests).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Assertions that compare loosely or take an array as "at least these items". */
const LOOSE_ASSERTIONS = [
  {
    selector: "CallExpression[callee.object.name='t'][callee.property.name=/^(same|notSame)$/]",
    message: 't.same compares loosely (1 equals "1"): use t.strictSame.',
  },
  {
    selector: "CallExpression[callee.property.name=/^(match|has|hasStrict|matchStrict)$/] > :nth-child(2) ArrayExpression",
    message: 'An array in a t.match/t.has pattern means "at least these items": use hasFields() (test/helpers/exact.ts) or t.strictSame.',
  },
  {
    selector: "CallExpression[callee.property.name=/^(match|has|hasStrict|matchStrict)$/] > ArrayExpression:nth-child(2)",
    message: 'An array pattern accepts extra items: use hasFields() (test/helpers/exact.ts) or t.strictSame.',
  },
];

export default tseslint.config(
  { ignores: ['build/**', 'node_modules/**', 'data/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './src/web/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error (a crash or a silent failure) and its ordering.
      // tap queues a subtest (t.test, t.skip ...) and waits for it itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-duplicate-type-constituents': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-debugger': 'error',
    },
  },
  {
    files: ['src/web/**/*.ts', 'src/web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...LOOSE_ASSERTIONS] },
  },
);
