import { z } from 'zod';
import { doCreateBot, doDeactivateBot, doUpdateBot, listOwnBots } from '../actions/bots';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { createdBotSchema, EMPTY, ownBotSchema, updatedBotSchema } from '../schemas/objects';

/* Bots (the public server's /bots endpoints; not in the reference OpenAPI). */

const configData = json(z.record(z.string(), z.string()));

/** POST /bots. */
export const postBot = userRoute(
  z.object({
    full_name: z.string(),
    short_name: z.string(),
    bot_type: json(param.safeInt.default(1)),
    payload_url: json(z.string().optional()),
    service_name: z.string().optional(),
    config_data: json(z.record(z.string(), z.string()).default({})),
    interface_type: json(param.safeInt.default(1)),
    default_sending_stream: z.string().optional(),
    default_events_register_stream: z.string().optional(),
    default_all_public_streams: param.optionalBool(),
  }),
  createdBotSchema,
  async ({ realm, user }, p) =>
    doCreateBot(realm, user, {
      fullName: p.full_name,
      shortName: p.short_name,
      botType: p.bot_type,
      payloadUrl: p.payload_url,
      serviceName: p.service_name,
      interfaceType: p.interface_type,
      configData: p.config_data,
      defaultSendingStream: p.default_sending_stream,
      defaultEventsRegisterStream: p.default_events_register_stream,
      defaultAllPublicStreams: p.default_all_public_streams,
    }),
);

/** GET /bots: `bots`, the caller's. */
export const getBots = userRoute(z.object({}), z.strictObject({ bots: z.array(ownBotSchema) }), ({ realm, user }) => ({
  bots: listOwnBots(realm, user),
}));

/** PATCH /bots/{bot_id}. */
export const patchBot = userRoute(
  z.object({
    bot_id: param.id(),
    full_name: z.string().optional(),
    role: param.optionalInt(),
    bot_owner_id: param.optionalInt(),
    config_data: configData.optional(),
    service_payload_url: json(z.string().optional()),
    service_interface: json(param.safeInt.default(1)),
    default_sending_stream: z.string().optional(),
    default_events_register_stream: z.string().optional(),
    default_all_public_streams: param.optionalBool(),
  }),
  updatedBotSchema,
  async ({ realm, user }, p) =>
    doUpdateBot(realm, user, p.bot_id, {
      fullName: p.full_name,
      role: p.role,
      botOwnerId: p.bot_owner_id,
      configData: p.config_data,
      servicePayloadUrl: p.service_payload_url,
      serviceInterface: p.service_interface,
      defaultSendingStream: p.default_sending_stream,
      defaultEventsRegisterStream: p.default_events_register_stream,
      defaultAllPublicStreams: p.default_all_public_streams,
    }),
);

/** DELETE /bots/{bot_id}: deactivates the bot. */
export const deleteBot = userRoute(z.object({ bot_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeactivateBot(realm, user, p.bot_id);
  return {};
});
