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

/** Extra fields of a success response (merged beside `result` and `msg`), or bytes (files). */
export type HandlerResult = Record<string, unknown> | BinaryReply;

/** A route with its parameter types erased, as the realm dispatches it. */
export interface Route {
  auth: 'user' | 'none' | 'optional';
  params: z.ZodObject;
  aliases: Readonly<Record<string, string>>;
  run(ctx: RouteContext, values: unknown): HandlerResult | Promise<HandlerResult>;
}

interface RouteOptions {
  /** Deprecated parameter name → current name (SPEC §Versioning 4). */
  aliases?: Readonly<Record<string, string>>;
}

/** An endpoint that needs an authenticated user (the default for the API). */
export function userRoute<S extends z.ZodObject>(
  params: S,
  handler: (ctx: UserContext, values: z.output<S>) => HandlerResult | Promise<HandlerResult>,
  options: RouteOptions = {},
): Route {
  return {
    auth: 'user',
    params,
    aliases: options.aliases ?? {},
    run: (ctx, values) => handler(ctx as UserContext, values as z.output<S>),
  };
}

/** An endpoint open without credentials (server settings, fetching an API key). */
export function openRoute<S extends z.ZodObject>(
  params: S,
  handler: (ctx: RouteContext, values: z.output<S>) => HandlerResult | Promise<HandlerResult>,
  options: RouteOptions = {},
): Route {
  return {
    auth: 'none',
    params,
    aliases: options.aliases ?? {},
    run: (ctx, values) => handler(ctx, values as z.output<S>),
  };
}

// register: optional authentication (SPEC §Authentication 3)
/**
 * An endpoint that serves both users and, when the realm allows spectators, callers without
 * credentials: sent credentials are checked as for a user route; none gives `user: null`.
 */
export function optionalUserRoute<S extends z.ZodObject>(
  params: S,
  handler: (ctx: RouteContext, values: z.output<S>) => HandlerResult | Promise<HandlerResult>,
  options: RouteOptions = {},
): Route {
  return {
    auth: 'optional',
    params,
    aliases: options.aliases ?? {},
    run: (ctx, values) => handler(ctx, values as z.output<S>),
  };
}
