import type { Realm } from '../realm';

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export function listLinkifiers(realm: Realm): Linkifier[] {
  return realm.rows<Linkifier, []>('SELECT id, pattern, url_template FROM linkifiers ORDER BY id').all();
}

/**
 * GET /realm/filters, the list as servers before the URL templates answered it (zulip-js
 * `filters.retrieve`): `[pattern, url_format_string, id]`, the simple `{name}` expansions of the
 * template written in the old `%(name)s` form.
 */
export function legacyFilters(realm: Realm): [string, string, number][] {
  return listLinkifiers(realm).map((l) => [l.pattern, l.url_template.replace(/\{(\w+)\}/g, '%($1)s'), l.id]);
}
