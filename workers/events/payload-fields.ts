import { z } from 'zod';

/** The pieces every event payload schema is built from (workers/events/types.ts). */
export const id = z.number().int();
export const ids = z.array(id);
export const timestamp = z.number().int();

/** Every event carries its per-queue counter. */
export const base = { id } as const;
