/**
 * The sanitizer's fast path (workers/markdown/sanitize.ts): HTML that `isPlainParagraphs` admits
 * must be exactly what the full allow-list pass would return, and everything else must take
 * the full pass.
 */
import t from 'tap';
import { isPlainParagraphs, sanitizeRenderedHtml, sanitizeWithAllowList } from '../../workers/markdown/sanitize';
import { loadFixture } from '../helpers/markdown-fixture';

t.test('every fixture output the fast path admits is one the full pass leaves unchanged', async (t) => {
  const fixture = loadFixture();
  let admitted = 0;
  for (const testCase of fixture.regular_tests) {
    const html = testCase.expected_output;
    if (!isPlainParagraphs(html)) continue;
    admitted++;
    t.equal(sanitizeWithAllowList(html, false), html, testCase.name);
  }
  t.ok(admitted >= 10, `the fast path admits ${admitted} fixture outputs`);
});

t.test('typical messages take the fast path', async (t) => {
  for (const html of [
    '<p>Hello, <strong>world</strong>! How is everyone doing today?</p>',
    '<p>a<br>\nb</p>\n<p><em>x <code>y &amp;&lt;&gt; "q" \'s\'</code></em> <del>z</del></p>',
    '<p>&#39;&#x1F600;&copy;&aaaaaaaaaaaaaaaaaaaa;</p>',
    'plain text, no paragraph',
  ]) {
    t.ok(isPlainParagraphs(html), html);
    t.equal(sanitizeWithAllowList(html, false), html, `${html}: the full pass agrees`);
  }
});

t.test('anything else takes the full pass', async (t) => {
  const cases: [string, string][] = [
    ['<p onclick="x()">a</p>', '<p>a</p>'],
    ['<script>alert(1)</script><p>a</p>', '<p>a</p>'],
    ['<p>a > b</p>', '<p>a &gt; b</p>'],
    ['<p>a & b</p>', '<p>a &amp; b</p>'],
    ['<p>&aaaaaaaaaaaaaaaaaaaaa;</p>', '<p>&amp;aaaaaaaaaaaaaaaaaaaaa;</p>'],
    ['<p><strong>a</p></strong>', '<p><strong>a</strong></p>'],
    ['<p>a<p>b</p></p>', '<p>a</p><p>b</p><p></p>'],
    ['<strong>a</strong>', '<strong>a</strong>'],
    ['<p>a</br></p>', '<p>a<br></p>'],
    ['<p>a', '<p>a</p>'],
  ];
  for (const [html, sanitized] of cases) {
    t.notOk(isPlainParagraphs(html), `${html} is not plain`);
    t.equal(sanitizeRenderedHtml(html, false), sanitized, `${html} is sanitized in full`);
  }
});

t.test('random tag soup: whatever the fast path admits, the full pass leaves unchanged', async (t) => {
  const pieces = [
    '<p>',
    '</p>',
    '<strong>',
    '</strong>',
    '<em>',
    '</em>',
    '<code>',
    '</code>',
    '<del>',
    '</del>',
    '<br>',
    '</br>',
    '<div>',
    '<p class="x">',
    '<script>',
    '&amp;',
    '&#39;',
    '&x;',
    '&',
    '<',
    '>',
    '"',
    "'",
    ' />',
    'a',
    ' ',
    '\n',
  ];
  // A fixed linear congruential sequence: the same soup on every run.
  let seed = 12345;
  const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  let admitted = 0;
  const disagreements: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    let html = '';
    for (let length = 1 + next(12); length > 0; length--) html += pieces[next(pieces.length)];
    if (!isPlainParagraphs(html)) continue;
    admitted++;
    if (sanitizeWithAllowList(html, false) !== html) disagreements.push(html);
  }
  t.ok(admitted >= 200, `the fast path admitted ${admitted} of 20,000`);
  t.strictSame(disagreements, [], 'no admitted soup is changed by the full pass');
});
