/**
 * The reference fixture (api-notes §g): 168 regular cases and 73 linkify cases, compared after
 * normalising whitespace between tags. At least 90% must pass; skipped cases count as failures.
 */
import t from 'tap';
import { renderMarkdown, type MarkdownContext } from '../../workers/markdown';
import { katexAvailable } from '../../workers/markdown/math';
import { sanitizeRenderedHtml } from '../../workers/markdown/sanitize';
import {
  ALWAYS_SKIPPED,
  REQUIRED_PASS_RATIO,
  linkifyExpectation,
  loadFixture,
  normalizeWhitespaceBetweenTags,
} from '../helpers/markdown-fixture';

/** Cases we cannot render as the reference does, with the reason. */
const SKIPPED: Readonly<Record<string, string>> = ALWAYS_SKIPPED;

t.test('KaTeX, a dependency, is installed: math cases are never excused', async (t) => {
  t.equal(katexAvailable(), true);
});

/** The fixture's messages come from a realm at this address (see its `fragment_link` case). */
const CONTEXT: MarkdownContext = {
  realmUrl: 'http://zulip.testserver',
  users: [],
  userGroups: [],
  streams: [],
  realmEmoji: [],
  linkifiers: [],
};
const fixture = loadFixture();
const total = fixture.regular_tests.length + fixture.linkify_tests.length;
let passed = 0;

t.test('regular fixture cases render as the reference does', async (t) => {
  for (const testCase of fixture.regular_tests) {
    const reason = SKIPPED[testCase.name];
    if (reason !== undefined) {
      t.comment(`skipped ${testCase.name}: ${reason}`);
      continue;
    }
    const context = { ...CONTEXT, translateEmoticons: testCase.translate_emoticons === true };
    const html = renderMarkdown(testCase.input, context).html;
    const same = normalizeWhitespaceBetweenTags(html) === normalizeWhitespaceBetweenTags(testCase.expected_output);
    if (same) passed++;
    t.equal(normalizeWhitespaceBetweenTags(html), normalizeWhitespaceBetweenTags(testCase.expected_output), testCase.name);
  }
});

t.test('linkify fixture cases link exactly what the reference links', async (t) => {
  for (const testCase of fixture.linkify_tests) {
    const expected = normalizeWhitespaceBetweenTags(linkifyExpectation(testCase));
    const actual = normalizeWhitespaceBetweenTags(renderMarkdown(testCase[0], CONTEXT).html);
    if (actual === expected) passed++;
    t.equal(actual, expected, testCase[0]);
  }
});

t.test('the sanitizer admits every reference output unchanged, math included', async (t) => {
  for (const testCase of fixture.regular_tests) {
    t.equal(sanitizeRenderedHtml(testCase.expected_output, true), testCase.expected_output, testCase.name);
  }
});

t.test('at least 90% of all fixture cases pass, counting skipped ones as failures', async (t) => {
  t.comment(`fixture: ${passed}/${total} cases pass (${Object.keys(SKIPPED).length} skipped)`);
  t.ok(passed / total >= REQUIRED_PASS_RATIO, `${passed}/${total} >= ${REQUIRED_PASS_RATIO}`);
});
