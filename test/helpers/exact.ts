/**
 * Strict checks of the fields a test cares about. `t.match` and `t.has` take an array in a
 * pattern as "at least these items" (`{ flags: [] }` matches `['read']`, `[event]` matches a
 * list with more events) and compare loosely (`1` matches `"1"`); these helpers compare the
 * named fields with `t.strictSame`, so arrays must match exactly, in length and order, and
 * values in type.
 */

type Assert = { strictSame(found: unknown, wanted: unknown, message: string): boolean };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `found` reduced to the keys `wanted` names, recursively. Arrays keep every item (extra or
 * missing items then fail the comparison); an item is reduced by the pattern at its index.
 * Where a value is not known in advance, `wanted` may name its type (`String`, `Number`,
 * `Boolean`: a finite number, a string, a boolean) or a RegExp a string must match; a value
 * that fits is replaced by the pattern itself, so it compares equal.
 */
export function fieldsNamed(found: unknown, wanted: unknown): unknown {
  if (wanted === String) return typeof found === 'string' ? wanted : found;
  if (wanted === Number) return typeof found === 'number' && Number.isFinite(found) ? wanted : found;
  if (wanted === Boolean) return typeof found === 'boolean' ? wanted : found;
  if (wanted instanceof RegExp) return typeof found === 'string' && wanted.test(found) ? wanted : found;
  if (Array.isArray(wanted) && Array.isArray(found)) {
    return found.map((item: unknown, index) => (index < wanted.length ? fieldsNamed(item, wanted[index]) : item));
  }
  if (isPlainObject(wanted) && isPlainObject(found)) {
    return Object.fromEntries(
      Object.keys(wanted)
        .filter((key) => key in found)
        .map((key) => [key, fieldsNamed(found[key], wanted[key])]),
    );
  }
  return found;
}

/** Passes when `found` has exactly the fields of `wanted`, strictly equal; other keys of objects are ignored. */
export function hasFields(t: Assert, found: unknown, wanted: unknown, message?: string): boolean {
  return t.strictSame(fieldsNamed(found, wanted), wanted, message ?? 'the named fields are exactly these');
}
