import type { Fixture, Identity, IdentityName, RoleName } from './fixture';
import { ROLES } from './fixture';

/** An expected refusal: the status and the exact error body. */
export interface Refusal {
  status: number;
  body: Record<string, unknown>;
}

export type Params = Record<string, string | number | boolean | object>;

/** How one route is called and who may call it (a row of the authorization table). */
export interface Rule {
  /** The concrete path (path parameters filled in) under /api/v1; the route's own path when absent. */
  path?: (f: Fixture) => string;
  params?: (f: Fixture, who: Identity) => Params;
  /** Roles of realm A refused, and how; the roles not listed may call it. */
  refused?: Partial<Record<RoleName, Refusal>> | ((f: Fixture) => Partial<Record<RoleName, Refusal>>);
  /** Open without credentials (SPEC §Authentication: server settings, fetching an API key). */
  open?: true;
  /** Open to spectators when the realm allows them (SPEC §Authentication 3). */
  spectators?: true;
  /** Answers to the other callers of open routes, where they differ from being let in. */
  others?: Partial<Record<IdentityName, Refusal>>;
  /**
   * The answer when realm B's owner names realm A's objects on B's host: a not-found error unless
   * said here (a success that finds nothing).
   */
  isolation?: Refusal;
  /** Ends the caller's credentials (a new key, deactivation): called after every other route. */
  last?: true;
}

/** A success answer with exactly these fields (for rules' `isolation`). */
export function success(fields: Record<string, unknown> = {}): Refusal {
  return { status: 200, body: { result: 'success', msg: '', ...fields } };
}

export function refusal(status: number, msg: string, code: string | null = 'BAD_REQUEST', extras: Record<string, unknown> = {}): Refusal {
  return { status, body: { result: 'error', msg, ...(code === null ? {} : { code }), ...extras } };
}

// SPEC §Authentication 2 and api-notes §f (authentication failures).
export const NOT_LOGGED_IN = refusal(401, 'Not logged in: API authentication or user session required', null);
export const INVALID_API_KEY = refusal(401, 'Invalid API key', 'INVALID_API_KEY');
export const USER_DEACTIVATED = refusal(401, 'Account is deactivated', 'USER_DEACTIVATED');
export const REALM_DEACTIVATED = refusal(401, 'This organization has been deactivated', 'REALM_DEACTIVATED');
export const AUTHENTICATION_FAILED = refusal(401, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED');

// SPEC §Errors and api-notes §f (common BAD_REQUEST messages), openapi examples.
export const MUST_BE_ADMIN = refusal(400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
export const MUST_BE_OWNER = refusal(400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
export const NOT_FOR_GUESTS = refusal(400, 'Not allowed for guest users');
export const NO_BOTS = refusal(400, 'This endpoint does not accept bot requests.');
export const INSUFFICIENT = refusal(400, 'Insufficient permission');
export const NOT_FOR_QUERY = refusal(400, 'User not authorized for this query');
export const INVALID_STREAM = refusal(400, 'Invalid stream ID');
export const INVALID_MESSAGE = refusal(400, 'Invalid message(s)');
export const NO_EDIT = refusal(400, "You don't have permission to edit this message");
export const NO_DELETE = refusal(400, "You don't have permission to delete this message");
export const NO_DRAFT = refusal(404, 'Draft does not exist');
export const NO_SCHEDULED = refusal(404, 'Scheduled message does not exist');
export const INVALID_ATTACHMENT = refusal(400, 'Invalid attachment');
export const NO_FILE = refusal(404, 'File not found');
export const MUST_BE_BOT = refusal(400, 'Must be a bot user');
export const NOT_EMOJI_AUTHOR = refusal(400, 'Must be an organization administrator or emoji author');

export function badQueue(queueId: string): Refusal {
  return refusal(400, `Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', { queue_id: queueId });
}

/** Every role but `allowed` refused with `answer`. */
export function except(allowed: readonly RoleName[], answer: Refusal): Partial<Record<RoleName, Refusal>> {
  return Object.fromEntries(ROLES.filter((role) => !allowed.includes(role)).map((role) => [role, answer]));
}

export const ADMINS: readonly RoleName[] = ['owner', 'admin'];
/** Subscribers of realm A's private stream (fixture.ts). */
export const PRIVATE_READERS: readonly RoleName[] = ['owner', 'admin'];
/** Who may see realm A's public stream: everyone but its guest, who is not subscribed. */
export const PUBLIC_READERS: readonly RoleName[] = ['owner', 'admin', 'moderator', 'member', 'bot'];
/** Members and administrators only (api-notes §b GET /user_groups). */
export const HUMAN_MEMBERS = { guest: NOT_FOR_GUESTS, bot: NO_BOTS } as const;
