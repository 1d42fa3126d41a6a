/**
 * `<time:...>` values (api-notes §g): a lenient reading of the date forms people type ("Jun 5th
 * 2017, 10:30PM", "31 Dec 2017 5:30 am IST", ISO 8601, Unix seconds) into an ISO 8601 UTC
 * string. Unlike a parser that fills gaps from today's date, a missing year, month or day makes
 * the value invalid, so the result depends on the text alone.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)(?:[a-z]*)\.?$/;
const WEEKDAYS = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?\.?$/;
const FILLER_WORDS = new Set(['at', 'on', 'of', 'the', 'and']);

/** Offsets in minutes east of UTC for the abbreviations people commonly write. */
const ZONE_OFFSETS: Readonly<Record<string, number>> = {
  utc: 0,
  gmt: 0,
  z: 0,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  pkt: 300,
  ict: 420,
  wib: 420,
  hkt: 480,
  sgt: 480,
  awst: 480,
  cst: -360,
  cdt: -300,
  est: -300,
  edt: -240,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  jst: 540,
  kst: 540,
  acst: 570,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
  brt: -180,
  art: -180,
};

interface Parts {
  year?: number;
  month?: number;
  day?: number;
  hour: number;
  minute: number;
  second: number;
  fraction: number;
  /** Minutes east of UTC. */
  offset: number;
}

function isoFromEpochMillis(millis: number): string | null {
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  if (Number.isNaN(millis) || year < 1 || year > 9999) return null;
  const iso = date.toISOString();
  const fractionMillis = date.getUTCMilliseconds();
  // Whole seconds print without a fraction; otherwise six digits, as ISO writers usually do.
  return fractionMillis === 0 ? iso.replace(/\.\d{3}Z$/, 'Z') : iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

function isoFromParts(parts: Parts): string | null {
  const { year, month, day } = parts;
  if (year === undefined || month === undefined || day === undefined) return null;
  if (month < 1 || month > 12 || day < 1 || parts.hour > 23 || parts.minute > 59 || parts.second > 59) return null;
  const local = Date.UTC(year, month - 1, day, parts.hour, parts.minute, parts.second);
  if (new Date(local).getUTCDate() !== day) return null; // e.g. 31 Feb
  return isoFromEpochMillis(local - parts.offset * 60_000 + Math.round(parts.fraction * 1000));
}

function parseOffset(text: string): number | null {
  const named = ZONE_OFFSETS[text.toLowerCase()];
  if (named !== undefined) return named;
  const numeric = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(text);
  if (numeric === null) return null;
  const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
  return numeric[1] === '-' ? -minutes : minutes;
}

const ISO_FORM = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2}|UTC|GMT)?$/i;

function parseIso(text: string): string | null {
  const m = ISO_FORM.exec(text);
  if (m === null) return null;
  const offset = m[8] === undefined || /^z$/i.test(m[8]) ? 0 : parseOffset(m[8]);
  if (offset === null) return null;
  return isoFromParts({
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    fraction: Number(m[7] ?? 0),
    offset,
  });
}

function applyTime(parts: Parts, hour: number, minute: number, second: number, meridiem: string | undefined): boolean {
  let h = hour;
  if (meridiem !== undefined) {
    if (h < 1 || h > 12) return false;
    const pm = meridiem.toLowerCase().startsWith('p');
    h = (h % 12) + (pm ? 12 : 0);
  }
  parts.hour = h;
  parts.minute = minute;
  parts.second = second;
  return true;
}

/** One word of a free-form date; false when the word means nothing to us. */
function readWord(word: string, parts: Parts): boolean {
  const lower = word.toLowerCase();
  if (FILLER_WORDS.has(lower) || WEEKDAYS.test(lower)) return true;
  const month = MONTH_NAMES.exec(lower);
  if (month !== null) {
    parts.month = MONTHS.indexOf((month[1] ?? '').slice(0, 3)) + 1;
    return true;
  }
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(word);
  if (clock !== null) return applyTime(parts, Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0), clock[4]);
  const hourOnly = /^(\d{1,2})\s*([ap]\.?m\.?)$/i.exec(word);
  if (hourOnly !== null) return applyTime(parts, Number(hourOnly[1]), 0, 0, hourOnly[2]);
  if (/^[ap]\.?m\.?$/i.test(word)) return applyTime(parts, parts.hour, parts.minute, parts.second, lower);
  const numericDate = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(word);
  if (numericDate !== null) {
    const [first, second, third] = [Number(numericDate[1]), Number(numericDate[2]), Number(numericDate[3])];
    const yearFirst = (numericDate[1] ?? '').length === 4;
    parts.year = yearFirst ? first : third;
    parts.month = yearFirst ? second : first;
    parts.day = yearFirst ? third : second;
    return true;
  }
  const ordinal = /^(\d{1,2})(?:st|nd|rd|th)?$/i.exec(word);
  if (ordinal !== null && parts.day === undefined) {
    parts.day = Number(ordinal[1]);
    return true;
  }
  if (/^\d{4}$/.test(word) && parts.year === undefined) {
    parts.year = Number(word);
    return true;
  }
  const offset = parseOffset(word);
  if (offset !== null) {
    parts.offset = offset;
    return true;
  }
  return false;
}

/** The ISO 8601 UTC form of a `<time:...>` value, or null if it is not a time we understand. */
export function parseTimestamp(input: string): string | null {
  const text = input.trim();
  if (text === '') return null;
  if (/^[+-]?\d+(?:\.\d+)?$/.test(text)) return isoFromEpochMillis(Number(text) * 1000);
  const iso = parseIso(text);
  if (iso !== null) return iso;
  const parts: Parts = { hour: 0, minute: 0, second: 0, fraction: 0, offset: 0 };
  for (const word of text.split(/[\s,]+/)) {
    if (word !== '' && !readWord(word, parts)) return null;
  }
  return isoFromParts(parts);
}
