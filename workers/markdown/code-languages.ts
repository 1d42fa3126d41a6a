/**
 * `data-code-language` carries the highlighter's display name for well-known languages (so `js`
 * and `javascript` both become "JavaScript", and `py2` becomes "Python 2.x", api-notes §g); any
 * other language is kept as written, lowercased. The names are those of the Pygments lexers
 * that clients' code playgrounds are configured against.
 */
const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash', sh: 'Bash', shell: 'Bash', zsh: 'Bash', ksh: 'Bash',
  c: 'C', 'c++': 'C++', cpp: 'C++', cs: 'C#', csharp: 'C#', 'c#': 'C#',
  clojure: 'Clojure', clj: 'Clojure', console: 'Bash Session', css: 'CSS', dart: 'Dart',
  diff: 'Diff', patch: 'Diff', docker: 'Docker', dockerfile: 'Docker', elixir: 'Elixir',
  ex: 'Elixir', erlang: 'Erlang', go: 'Go', golang: 'Go', graphql: 'GraphQL',
  haskell: 'Haskell', hs: 'Haskell', html: 'HTML', ini: 'INI', cfg: 'INI', java: 'Java',
  javascript: 'JavaScript', js: 'JavaScript', json: 'JSON', kotlin: 'Kotlin', latex: 'TeX',
  tex: 'TeX', lua: 'Lua', make: 'Makefile', makefile: 'Makefile', markdown: 'Markdown',
  md: 'Markdown', ocaml: 'OCaml', perl: 'Perl', pl: 'Perl', php: 'PHP', postgresql: 'PostgreSQL SQL dialect',
  powershell: 'PowerShell', ps1: 'PowerShell', py: 'Python', python: 'Python', python3: 'Python',
  py3: 'Python', py2: 'Python 2.x', python2: 'Python 2.x', rb: 'Ruby', ruby: 'Ruby', rs: 'Rust',
  rust: 'Rust', scala: 'Scala', scss: 'SCSS', sql: 'SQL', swift: 'Swift', text: 'Text only',
  toml: 'TOML', ts: 'TypeScript', typescript: 'TypeScript', xml: 'XML', yaml: 'YAML', yml: 'YAML',
  sage: 'Python', bazel: 'Python', starlark: 'Python', pyi: 'Python', 'json-object': 'JSON', openrc: 'Bash',
  'shell-session': 'Bash Session', udiff: 'Diff', duby: 'Ruby', php3: 'PHP', php4: 'PHP', php5: 'PHP',
};

export function canonicalLanguageName(language: string): string {
  const lower = language.toLowerCase();
  return DISPLAY_NAMES[lower] ?? lower;
}
