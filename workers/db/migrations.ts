import { CACHING_MIGRATIONS, LATER_CACHING_MIGRATIONS, type Migration } from './migrations-caching';
import { MESSAGING_MIGRATIONS } from './migrations-messaging';
import { PEOPLE_MIGRATIONS } from './migrations-people';
import { READING_MIGRATIONS } from './migrations-reading';
import { BOT_MIGRATIONS } from './migrations-bots';
import { WRITING_MIGRATIONS } from './migrations-writing';

/**
 * Schema migrations, applied in order by db/open.ts; `PRAGMA user_version` is the number of
 * migrations applied. Never edit a released migration: append a new one (to the last file, or
 * to a new file listed last here). Each file holds one era of the schema, so none grows long.
 * Timestamps are UNIX seconds (SPEC §Wire conventions 6) unless a column says otherwise.
 */
export const MIGRATIONS: readonly Migration[] = [
  ...MESSAGING_MIGRATIONS,
  ...PEOPLE_MIGRATIONS,
  ...CACHING_MIGRATIONS,
  ...READING_MIGRATIONS,
  ...BOT_MIGRATIONS,
  ...LATER_CACHING_MIGRATIONS,
  ...WRITING_MIGRATIONS,
];
