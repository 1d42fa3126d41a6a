import type { RequestFrame, ResponseFrame } from '../src/wire/protocol';
import { authenticate } from './actions/auth';
import { BinaryReply } from './lib/binary-reply';
import { ApiError, errors } from './lib/errors';
import { parseParams } from './lib/params';
import { reply } from './lib/reply';
import type { RouteContext } from './lib/route';
import type { UserRow } from './queries/users';
import type { Realm } from './realm';
import { ROUTES } from './routes';

/**
 * One request in its realm: route lookup → authenticate → parse → handler → envelope. It sits
 * above the route table, so the realm (state: database, group commit, outbox, actors) needs
 * nothing from the layers that serve requests.
 */
export async function dispatch(realm: Realm, frame: RequestFrame): Promise<ResponseFrame> {
  try {
    const route = ROUTES[frame.route as keyof typeof ROUTES];
    if (!route) return reply(frame.id, 404, { result: 'error', msg: 'Not found' });
    let user: UserRow | null = null;
    if (route.auth !== 'none') {
      if (realm.info.deactivated) throw errors.realmDeactivated();
      // Optional credentials (register, SPEC §Authentication 3) are checked when sent.
      if (route.auth === 'user' || frame.authorization !== '') user = authenticate(realm, frame.authorization);
    }
    const { values, ignored } = parseParams(route.params, route.aliases, frame.params, frame.pathParams);
    const ctx: RouteContext = { realm, user, frame };
    const result = await route.run(ctx, values);
    // File serving answers with bytes or a redirect, not the JSON envelope.
    if (result instanceof BinaryReply) return result.toFrame(frame.id);
    const body: Record<string, unknown> = { result: 'success', msg: '', ...result };
    if (ignored.length > 0) body['ignored_parameters_unsupported'] = ignored;
    return reply(frame.id, 200, body);
  } catch (err) {
    if (err instanceof ApiError) return reply(frame.id, err.status, err.toBody(), err.headers);
    realm.log.error({ err, realm: realm.name, route: frame.route }, 'unexpected error');
    return reply(frame.id, 500, { result: 'error', msg: 'Internal server error' });
  }
}
