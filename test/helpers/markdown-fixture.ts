import fs from 'node:fs';
import path from 'node:path';

/** The public API's Markdown cases (extracted into test/fixtures/) and how they are compared. */
export interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
}

export type LinkifyCase = [input: string, template: string, url: string];

export interface Fixture {
  regular_tests: RegularCase[];
  linkify_tests: LinkifyCase[];
}

// The reference cases as extracted into the repository (test/reference/extract.ts).
// Compiled into build/test/helpers/, so the repository root is three levels up.
const FIXTURE = path.resolve(__dirname, '../../..', 'test', 'fixtures', 'markdown-cases.json');

export function loadFixture(): Fixture {
  return JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Fixture;
}

export function normalizeWhitespaceBetweenTags(html: string): string {
  return html.replace(/>\s+</g, '><').trim();
}

/**
 * api-notes §g: the expected output is the template with `%s` replaced by a link to the URL,
 * whose href is the URL itself if it starts with `http`, `mailto:` + URL if it contains `@`,
 * and `http://` + URL otherwise.
 */
export function linkifyExpectation([, template, url]: LinkifyCase): string {
  if (!template.includes('%s')) return template;
  const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
  return template.replace('%s', `<a href="${href}">${url}</a>`);
}

export const NEUTRAL_NAMES =
  'the built-in image emoji carries the vendor name upstream; ours has the neutral name :teamchat: (workers/markdown/emoji.ts)';

/** Cases no server of ours renders as the reference does, with the reason. */
export const ALWAYS_SKIPPED: Readonly<Record<string, string>> = {
  zulip_emoji: NEUTRAL_NAMES,
};

export const REQUIRED_PASS_RATIO = 0.9;
