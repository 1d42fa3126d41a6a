import type { z } from 'zod';
import type { RequestFrame } from '../../src/wire/protocol';
import type { SessionRow } from '../queries/sessions';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';
import type { BinaryReply } from './binary-reply';

export interface RouteContext {
  realm: Realm;
  user: UserRow | null;
  /** The web page's session when the cookie authenticated the request (not Basic auth). */
  session: SessionRow | null;
  frame: RequestFrame;
  /** Set-Cookie values the handler adds to its answer (POST /login, POST /logout). */
  cookies: string[];
}

export interface UserContext extends RouteContext {
  user: UserRow;
}

/** A route that answers a file's bytes or a redirect, not the JSON envelope. */
export const BYTES = 'bytes';

/**
 * What a route answers on success: the fields beside `result` and `msg` (a strict zod object,
 * the wire contract of its 200 body), or BYTES.
 */
export type ResultSchema = z.ZodObject | typeof BYTES;

/** What a handler returns for its result schema: the body's fields as the schema takes them. */
export type ResultOf<R extends ResultSchema> = R extends z.ZodObject ? z.input<R> : BinaryReply;

/** Extra fields of a success response (merged beside `result` and `msg`), or bytes (files). */
export type HandlerResult = Record<string, unknown> | BinaryReply;

/** A route with its parameter and result types erased, as the realm dispatches it. */
export interface Route {
  auth: 'user' | 'none' | 'optional';
  params: z.ZodObject;
  result: ResultSchema;
  aliases: Readonly<Record<string, string>>;
  run(ctx: RouteContext, values: unknown): HandlerResult | Promise<HandlerResult>;
}

interface RouteOptions {
  /** Deprecated parameter name → current name (SPEC §Versioning 4). */
  aliases?: Readonly<Record<string, string>>;
}

/** Every key of `T`, or of any member when `T` is a union of objects. */
type KeysOf<T> = T extends unknown ? keyof T : never;

/**
 * What a handler may return for the result `Shape`: a `T` assignable to it with no key beyond
 * its keys. TypeScript checks excess properties only where an object literal meets its declared
 * type, which a callback's inferred return type never does; this makes `tsc` reject an added
 * field as the contract check (lib/contract.ts) would at run time.
 */
export type NoExtraKeys<T, Shape> = Shape & Record<Exclude<KeysOf<T>, keyof Shape>, never>;

type Handler<C, S extends z.ZodObject, T> = (ctx: C, values: z.output<S>) => T | Promise<T>;

function route<C extends RouteContext, S extends z.ZodObject, R extends ResultSchema>(
  auth: Route['auth'],
  params: S,
  result: R,
  handler: Handler<C, S, ResultOf<R>>,
  options: RouteOptions,
): Route {
  return {
    auth,
    params,
    result,
    aliases: options.aliases ?? {},
    // The dispatcher authenticates before it runs a route, so `ctx` is the context `auth` promises.
    run: (ctx, values) => handler(ctx as C, values as z.output<S>),
  };
}

/** An endpoint that needs an authenticated user (the default for the API). */
export function userRoute<S extends z.ZodObject, R extends ResultSchema, T extends NoExtraKeys<T, ResultOf<R>>>(
  params: S,
  result: R,
  handler: Handler<UserContext, S, T>,
  options: RouteOptions = {},
): Route {
  return route('user', params, result, handler, options);
}

/** An endpoint open without credentials (server settings, fetching an API key). */
export function openRoute<S extends z.ZodObject, R extends ResultSchema, T extends NoExtraKeys<T, ResultOf<R>>>(
  params: S,
  result: R,
  handler: Handler<RouteContext, S, T>,
  options: RouteOptions = {},
): Route {
  return route('none', params, result, handler, options);
}

// register: optional authentication (SPEC §Authentication 3)
/**
 * An endpoint that serves both users and, when the realm allows spectators, callers without
 * credentials: sent credentials are checked as for a user route; none gives `user: null`.
 */
export function optionalUserRoute<S extends z.ZodObject, R extends ResultSchema, T extends NoExtraKeys<T, ResultOf<R>>>(
  params: S,
  result: R,
  handler: Handler<RouteContext, S, T>,
  options: RouteOptions = {},
): Route {
  return route('optional', params, result, handler, options);
}
