import type { Realm } from '../realm';

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export function listLinkifiers(realm: Realm): Linkifier[] {
  return realm.stmt('SELECT id, pattern, url_template FROM linkifiers ORDER BY id').all() as Linkifier[];
}
