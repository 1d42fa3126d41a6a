import { z } from 'zod';
import { timestamp } from './payload-fields';
import { streamObjectSchema } from './stream-user-payloads';

/** stream-prefs: the legacy muted-topics list (api-notes §d user_topic); composed in workers/events/types.ts. */
export const mutedTopicsEvent = z.strictObject({
  type: z.literal('muted_topics'),
  // [stream_name, topic, timestamp] per muted topic.
  muted_topics: z.array(z.tuple([z.string(), z.string(), timestamp])),
});

/** The realm's whole default-stream list, after an administrator changed it (api-notes §d). */
export const defaultStreamsEvent = z.strictObject({
  type: z.literal('default_streams'),
  default_streams: z.array(streamObjectSchema),
});

/** Every default stream group, after an administrator changed one (openapi DefaultStreamGroup). */
export const defaultStreamGroupsEvent = z.strictObject({
  type: z.literal('default_stream_groups'),
  default_stream_groups: z.array(
    z.strictObject({ name: z.string(), id: z.number().int(), description: z.string(), streams: z.array(streamObjectSchema) }),
  ),
});
