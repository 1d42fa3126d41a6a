/**
 * Highlighted code skips the sanitizer (workers/markdown/block-fences.ts insertHighlightedCode),
 * so every lexer's output must be what the sanitizer's allow-list would leave unchanged, and must
 * keep every character of the code, whatever the input.
 */
import t from 'tap';
import { highlightCode } from '../../workers/markdown/highlight';
import { sanitizeWithAllowList } from '../../workers/markdown/sanitize';

const LANGUAGES = [
  'python',
  'py2',
  'js',
  'ts',
  'json',
  'bash',
  'console',
  'sql',
  'html',
  'xml',
  'css',
  'c',
  'cpp',
  'java',
  'go',
  'rust',
  'ruby',
  'php',
  'yaml',
  'diff',
  'tex',
];

const SAMPLES = [
  'def f(x="a<b>&c"):\n    return f\'{x!r}\' # \'"\n',
  '<script>alert("x")</script><a href=\'javascript:1\' onclick="y">&amp;&#39;</a>\n',
  '/* unclosed comment "\n`${a}` $x ${y} #{z} @d \\\n',
  'key: [1, {a: "b"}] # c\n- &x *y !!str |\n  block\n',
  '@@ -1 +1 @@\n-a\n+b\n$ ls\nout\n',
];

/** Reproducible noise over the characters lexers treat specially. */
function noise(seed: number, length: number): string {
  const alphabet = ' \n\t"\'`\\/*#{}[]()<>$@:;,.=-+!?&|%^~aZ09_xé\u200d';
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    text += alphabet[state % alphabet.length];
  }
  return `${text}\n`;
}

function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

t.test('every lexer keeps the text and passes the allow-list unchanged', async (t) => {
  const inputs = [...SAMPLES, ...[1, 2, 3, 4, 5].map((seed) => noise(seed, 400))];
  for (const language of LANGUAGES) {
    let failures = 0;
    for (const code of inputs) {
      const highlighted = highlightCode(code, language);
      if (highlighted === undefined) {
        t.fail(`${language} is not highlighted`);
        break;
      }
      const block = `<div class="codehilite"><pre><span></span><code>${highlighted}</code></pre></div>`;
      if (textOf(highlighted) !== code || sanitizeWithAllowList(block, false) !== block) {
        failures++;
        t.equal(textOf(highlighted), code, `${language}: the text of ${JSON.stringify(code.slice(0, 30))}`);
        t.equal(sanitizeWithAllowList(block, false), block, `${language}: the allow-list admits ${JSON.stringify(code.slice(0, 30))}`);
      }
    }
    t.equal(failures, 0, `${language}: ${inputs.length} inputs`);
  }
});
