import type { Realm } from '../realm';

export interface Playground {
  id: number;
  name: string;
  lexer_language: string;
  url_prefix: string;
}

/** `realm_playgrounds` in register and its event (SPEC Code playground), by ID. */
export function listPlaygrounds(realm: Realm): Playground[] {
  return realm.rows<Playground, []>('SELECT id, name, lexer_language, url_prefix FROM realm_playgrounds ORDER BY id').all();
}
