import { z } from 'zod';
import { base, timestamp } from './payload-fields';

/** stream-prefs: the legacy muted-topics list (api-notes §d user_topic); composed in workers/events/types.ts. */
export const mutedTopicsEvent = z.strictObject({
  ...base,
  type: z.literal('muted_topics'),
  // [stream_name, topic, timestamp] per muted topic.
  muted_topics: z.array(z.tuple([z.string(), z.string(), timestamp])),
});
