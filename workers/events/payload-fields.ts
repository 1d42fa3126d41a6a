import { z } from 'zod';

/** The pieces every event payload schema is built from (workers/events/types.ts). */
export const id = z.number().int();
export const ids = z.array(id);
export const timestamp = z.number().int();

/** The kinds of emoji a reaction names (api-notes §d reaction). */
export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'] as const;
