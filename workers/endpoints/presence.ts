import { z } from 'zod';
import { checkPresenceStatus, doUpdatePresence } from '../actions/presence';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { OFFLINE_THRESHOLD_S, legacyPresence, presenceStateJson } from '../queries/presence';
import { realmSettings } from '../queries/realm-settings';
import { userSettings } from '../queries/user-settings';
import { userByEmail, userById } from '../queries/users';
import { serialized } from '../lib/contract';
import { presenceStateSchema } from '../schemas/objects';

/** The presences travel pre-serialised (queries/presence.ts keeps each entry's JSON). */
const presenceAnswerSchema = presenceStateSchema.extend({ presences: serialized(presenceStateSchema.shape.presences) });

/**
 * POST /users/me/presence (org): records the ping; answers with everyone's presence unless
 * `ping_only`. `new_user_input` is accepted: activity intervals are not tracked.
 */
export const postPresence = userRoute(
  z.object({
    status: z.string(),
    ping_only: param.bool(false),
    new_user_input: param.bool(false),
    slim_presence: param.bool(false),
  }),
  presenceAnswerSchema.partial(),
  ({ realm, user }, p) => {
    doUpdatePresence(realm, user, checkPresenceStatus(p.status));
    return p.ping_only ? {} : presenceStateJson(realm, p.slim_presence);
  },
);

/** GET /realm/presence (org): every visible user's presence, keyed by email. */
export const getRealmPresence = userRoute(z.object({}), presenceAnswerSchema, ({ realm }) => presenceStateJson(realm, false));

/** GET /users/{user_id_or_email}/presence (org): one user's presence, "offline" past the threshold. */
export const getUserPresence = userRoute(
  z.object({ user_id_or_email: z.string() }),
  z.strictObject({
    presence: z.record(z.string(), z.strictObject({ status: z.enum(['active', 'idle', 'offline']), timestamp: z.number().int() })),
  }),
  ({ realm }, p) => {
    const key = p.user_id_or_email;
    const target = /^\d+$/.test(key) ? userById(realm, Number(key)) : userByEmail(realm, key);
    if (!target || target.is_active === 0) throw errors.noSuchUser();
    if (target.is_bot) throw errors.badRequest('Presence is not supported for bot users.');
    const times = realm.presence.get(target.id);
    if (!times || !userSettings(target).presence_enabled || realmSettings(realm).presence_disabled) {
      throw errors.noPresenceData(key);
    }
    const presence = legacyPresence(times);
    const now = Math.floor(realm.clock.now() / 1000);
    const result: Record<string, { status: 'active' | 'idle' | 'offline'; timestamp: number }> = {};
    for (const [client, info] of Object.entries(presence)) {
      // Only the status and the timestamp (openapi get-user-presence).
      const stale = client === 'aggregated' && now - info.timestamp > OFFLINE_THRESHOLD_S;
      result[client] = { status: stale ? 'offline' : info.status, timestamp: info.timestamp };
    }
    return { presence: result };
  },
);
