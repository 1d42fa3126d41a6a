/**
 * Source normalization before tokenizing:
 *
 * - line endings become `\n`, tabs expand to 4-column stops, whitespace-only lines become empty;
 * - a list item written right under a line of text ("hanging" list, api-notes §g) or right under
 *   an item of the other list type gets a blank line in front of it, outside code fences, so it
 *   starts a list of its own. This is also what makes such items "loose" inside a list.
 */
import { FENCE } from './block-lines';

const TAB_STOP = 4;
/** Any-indent item line; only single-digit numbers count here, as in the dialect. */
const HANGING_ITEM = /^ *([*+-]|\d\.) +/;

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const char of line) {
    out += char === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : char;
  }
  return out;
}

interface OpenFence {
  fence: string;
  holdsCode: boolean;
}

function insertHangingListBreaks(lines: readonly string[]): string[] {
  const out: string[] = [];
  const openFences: OpenFence[] = [];
  let inCode = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    out.push(line);
    const next = lines[index + 1];
    if (next === undefined) break;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      const fenceText = fence[1] ?? '';
      const language = fence[2];
      if (language === undefined && openFences[openFences.length - 1]?.fence === fenceText) openFences.pop();
      // Only quotes have Markdown inside; code, math and spoilers count as code here.
      else openFences.push({ fence: fenceText, holdsCode: language !== 'quote' && language !== 'quoted' });
      inCode = openFences.some((open) => open.holdsCode);
    }
    const item = HANGING_ITEM.exec(line);
    const nextItem = HANGING_ITEM.exec(next);
    const otherListType = item !== null && nextItem !== null && (item[1]?.length === 1) !== (nextItem[1]?.length === 1);
    if (!inCode && line !== '' && nextItem !== null && (item === null || otherListType)) out.push('');
  }
  return out;
}

export function normalizeSource(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  return insertHangingListBreaks(lines)
    .map((line) => {
      const expanded = expandTabs(line);
      return /^ +$/.test(expanded) ? '' : expanded;
    })
    .join('\n');
}
