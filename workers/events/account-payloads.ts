import { z } from 'zod';
import { id } from './payload-fields';

/* The realm_bot events (api-notes §d; the reference OpenAPI's Bot and BasicBot). */

const outgoingService = z.strictObject({ base_url: z.string(), token: z.string(), interface: z.number().int() });
const embeddedService = z.strictObject({ service_name: z.string(), config_data: z.record(z.string(), z.string()) });
const services = z.array(z.union([outgoingService, embeddedService]));

const botFields = {
  user_id: id,
  full_name: z.string(),
  api_key: z.string(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
  avatar_url: z.string(),
  owner_id: id.nullable(),
  services,
};

/** realm_bot add: the whole bot, API key included (to its owner and the administrators). */
export const botSchema = z.strictObject({ ...botFields, email: z.string(), bot_type: z.number().int().nullable(), is_active: z.boolean() });

/** realm_bot update: `user_id` plus exactly one changed property. */
const botUpdate = z
  .strictObject({
    user_id: id,
    full_name: botFields.full_name.optional(),
    api_key: botFields.api_key.optional(),
    default_sending_stream: botFields.default_sending_stream.optional(),
    default_events_register_stream: botFields.default_events_register_stream.optional(),
    default_all_public_streams: botFields.default_all_public_streams.optional(),
    avatar_url: botFields.avatar_url.optional(),
    owner_id: botFields.owner_id.optional(),
    services: services.optional(),
  })
  .refine((bot) => Object.keys(bot).length === 2, { message: 'exactly one changed property' });

export const realmBotEvent = z.discriminatedUnion('op', [
  z.strictObject({ type: z.literal('realm_bot'), op: z.literal('add'), bot: botSchema }),
  z.strictObject({ type: z.literal('realm_bot'), op: z.literal('update'), bot: botUpdate }),
  z.strictObject({
    type: z.literal('realm_bot'),
    op: z.literal('remove'),
    bot: z.strictObject({ user_id: id, full_name: z.string() }),
  }),
  z.strictObject({ type: z.literal('realm_bot'), op: z.literal('delete'), bot: z.strictObject({ user_id: id }) }),
]);
