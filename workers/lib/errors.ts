/**
 * The one error type of the API and its catalogue (SPEC §Errors, api-notes §f). Every failure
 * a client should understand is an ApiError; anything else is a bug answered with a 500.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'REQUEST_VARIABLE_MISSING'
  | 'REQUEST_VARIABLE_INVALID'
  | 'REQUEST_CONFUSING_VAR'
  | 'STREAM_DOES_NOT_EXIST'
  | 'UNAUTHORIZED_PRINCIPAL'
  | 'BAD_EVENT_QUEUE_ID'
  | 'INVALID_API_KEY'
  | 'UNAUTHORIZED'
  | 'USER_DEACTIVATED'
  | 'REALM_DEACTIVATED'
  | 'AUTHENTICATION_FAILED'
  | 'NONEXISTENT_SUBDOMAIN'
  // fetch: narrows (api-notes §c, §f)
  | 'BAD_NARROW';

export type ErrorExtras = Record<string, string | number | boolean | null | readonly (string | number)[]>;

export class ApiError extends Error {
  constructor(
    message: string,
    /** null: the spec shows this error without a code (SPEC §Errors 4). */
    readonly code: ErrorCode | null = 'BAD_REQUEST',
    readonly status = 400,
    readonly extras: ErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { result: 'error', msg: this.message };
    if (this.code !== null) body['code'] = this.code;
    return Object.assign(body, this.extras);
  }
}

// A neutral name for the Basic-auth realm (api-notes §f).
const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Basic realm="teamchat"' };

export const errors = {
  badRequest: (msg: string) => new ApiError(msg),
  missingArgument: (name: string) =>
    new ApiError(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, { var_name: name }),
  invalidArgument: (name: string, msg: string) =>
    new ApiError(msg, 'REQUEST_VARIABLE_INVALID', 400, { var_name: name }),
  notJson: (name: string) => new ApiError(`Argument "${name}" is not valid JSON.`),
  confusingArguments: (first: string, second: string) =>
    new ApiError(`Can't decide between '${first}' and '${second}' arguments`, 'REQUEST_CONFUSING_VAR', 400, {
      var_name1: first,
      var_name2: second,
    }),
  // SPEC §Authentication 2: no code for missing credentials.
  notLoggedIn: () =>
    new ApiError('Not logged in: API authentication or user session required', null, 401, {}, WWW_AUTHENTICATE),
  // Credentials that cannot be read count as missing ones (SPEC §Authentication 2).
  invalidAuthHeader: () =>
    new ApiError('Not logged in: API authentication or user session required (the Authorization header is not valid HTTP Basic)', null, 401, {}, WWW_AUTHENTICATE),
  invalidApiKey: () => new ApiError('Invalid API key', 'INVALID_API_KEY', 401, {}, WWW_AUTHENTICATE),
  userDeactivated: () => new ApiError('Account is deactivated', 'USER_DEACTIVATED', 401, {}, WWW_AUTHENTICATE),
  realmDeactivated: () =>
    new ApiError('This organization has been deactivated', 'REALM_DEACTIVATED', 401, {}, WWW_AUTHENTICATE),
  authenticationFailed: () =>
    new ApiError('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401),
  noSuchRealm: (realm: string) =>
    new ApiError(`There is no organization named '${realm}' on this server`, 'NONEXISTENT_SUBDOMAIN', 404),
  mustBeAdmin: () => new ApiError('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
  streamNameDoesNotExist: (name: string) =>
    new ApiError(`Stream '${name}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: name }),
  streamIdDoesNotExist: (id: number) =>
    new ApiError(`Stream with ID '${id}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream_id: id }),
  unauthorizedPrincipal: (principal: string | number) =>
    new ApiError(`User not authorized to execute queries on behalf of '${principal}'`, 'UNAUTHORIZED_PRINCIPAL', 403, {
      principal,
    }),
  invalidMessage: () => new ApiError('Invalid message(s)'),
  // fetch: narrows, GET /messages and flags on a narrow (api-notes §b, §c, §f)
  badNarrow: (desc: string) => new ApiError(`Invalid narrow operator: ${desc}`, 'BAD_NARROW', 400, { desc }),
  invalidAnchor: () => new ApiError('Invalid anchor'),
  missingAnchor: () => new ApiError("Missing 'anchor' argument."),
  tooManyMessages: (max: number) => new ApiError(`Too many messages requested (maximum ${max}).`),
  anchorNotAtEnd: () => new ApiError('The anchor can only be excluded at an end of the range'),
  invalidFlag: (flag: string) => new ApiError(`Invalid flag: '${flag}'`),
  flagNotEditable: (flag: string) => new ApiError(`Flag not editable: '${flag}'`),
  invalidFlagOperation: (op: string) => new ApiError(`Invalid message flag operation: '${op}'`),
};
