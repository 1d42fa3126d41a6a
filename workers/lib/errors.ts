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
  | 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'
  | 'REQUEST_TIMEOUT'
  | 'CANNOT_DEACTIVATE_LAST_USER'
  | 'BAD_NARROW'
  | 'BAD_IMAGE'
  | 'RATE_LIMIT_HIT'
  | 'CSRF_FAILED'
  | 'REALM_UPLOAD_QUOTA'
  | 'PASSWORD_AUTH_DISABLED';

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
// Sessions are not Basic auth: a browser told "Basic" would ask the person for a password.
export const SESSION_CHALLENGE = { 'WWW-Authenticate': 'Session realm="teamchat"' };

export const errors = {
  badRequest: (msg: string) => new ApiError(msg),
  missingArgument: (name: string) => new ApiError(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, { var_name: name }),
  invalidArgument: (name: string, msg: string) => new ApiError(msg, 'REQUEST_VARIABLE_INVALID', 400, { var_name: name }),
  notJson: (name: string) => new ApiError(`Argument "${name}" is not valid JSON.`),
  confusingArguments: (first: string, second: string) =>
    new ApiError(`Can't decide between '${first}' and '${second}' arguments`, 'REQUEST_CONFUSING_VAR', 400, {
      var_name1: first,
      var_name2: second,
    }),
  // SPEC §Authentication 2: no code for missing credentials.
  notLoggedIn: () => new ApiError('Not logged in: API authentication or user session required', null, 401, {}, WWW_AUTHENTICATE),
  // Credentials that cannot be read count as missing ones (SPEC §Authentication 2).
  invalidAuthHeader: () =>
    new ApiError(
      'Not logged in: API authentication or user session required (the Authorization header is not valid HTTP Basic)',
      null,
      401,
      {},
      WWW_AUTHENTICATE,
    ),
  invalidApiKey: () => new ApiError('Invalid API key', 'INVALID_API_KEY', 401, {}, WWW_AUTHENTICATE),
  userDeactivated: () => new ApiError('Account is deactivated', 'USER_DEACTIVATED', 401, {}, WWW_AUTHENTICATE),
  realmDeactivated: () => new ApiError('This organization has been deactivated', 'REALM_DEACTIVATED', 401, {}, WWW_AUTHENTICATE),
  // The realm switched the Email method off (PATCH /realm authentication_methods).
  passwordAuthDisabled: () => new ApiError('Password authentication is disabled in this organization', 'PASSWORD_AUTH_DISABLED', 401),
  authenticationFailed: () => new ApiError('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401),
  // The public server's InvalidSubdomainError: a host that maps to no organization.
  noSuchRealm: () => new ApiError('Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 404),
  // register: parameters refused to spectators (feature level 149) and guests (api-notes §e)
  invalidForAnonymous: (name: string) => new ApiError(`Invalid '${name}' parameter for anonymous request`),
  notAuthorizedForQuery: () => new ApiError('User not authorized for this query'),
  mustBeAdmin: () => new ApiError('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
  streamNameDoesNotExist: (name: string) => new ApiError(`Stream '${name}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: name }),
  streamIdDoesNotExist: (id: number) =>
    new ApiError(`Stream with ID '${id}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream_id: id }),
  unauthorizedPrincipal: (principal: string | number) =>
    new ApiError(`User not authorized to execute queries on behalf of '${principal}'`, 'UNAUTHORIZED_PRINCIPAL', 403, {
      principal,
    }),
  invalidMessage: () => new ApiError('Invalid message(s)'),
  // legacy POST /users/me/pointer
  invalidMessageId: () => new ApiError('Invalid message ID'),
  // scheduled: api-notes §b /scheduled_messages; a missing one is a 404 with code BAD_REQUEST (§f).
  scheduledMessageDoesNotExist: () => new ApiError('Scheduled message does not exist', 'BAD_REQUEST', 404),
  scheduledTimeNotInFuture: () => new ApiError('Scheduled delivery time must be in the future.'),
  // Reactions, flags, mark-as-read, read receipts (api-notes §b; texts as the public API words them)
  emojiDoesNotExist: (name: string) => new ApiError(`Emoji '${name}' does not exist`),
  invalidEmojiCode: () => new ApiError('Invalid emoji code.'),
  invalidEmojiName: () => new ApiError('Invalid emoji name.'),
  invalidEmojiType: () => new ApiError('Invalid emoji type.'),
  invalidCustomEmoji: () => new ApiError('Invalid custom emoji.'),
  invalidCustomEmojiName: () => new ApiError('Invalid custom emoji name.'),
  customEmojiDeactivated: () => new ApiError('This custom emoji has been deactivated.'),
  reactionAlreadyExists: () => new ApiError('Reaction already exists.'),
  reactionDoesNotExist: () => new ApiError("Reaction doesn't exist."),
  emojiNameOrCodeMissing: () => new ApiError('At least one of the following arguments must be present: emoji_name, emoji_code'),
  invalidFlag: (flag: string) => new ApiError(`Invalid flag: '${flag}'`),
  flagNotEditable: (flag: string) => new ApiError(`Flag not editable: '${flag}'`),
  invalidFlagOperation: (op: string) => new ApiError(`Invalid message flag operation: '${op}'`),
  invalidStreamId: () => new ApiError('Invalid stream ID'),
  noSuchTopic: (topic: string) => new ApiError(`No such topic '${topic}'`),
  readReceiptsDisabled: () => new ApiError('Read receipts are disabled in this organization.'),
  // edit: message edits, moves and deletion (api-notes §b, openapi update-message / delete-message)
  nothingToChange: () => new ApiError('Nothing to change'),
  messageEditingDisabled: () => new ApiError('Your organization has turned off message editing'),
  noPermissionToEdit: () => new ApiError("You don't have permission to edit this message"),
  editTimeLimitPassed: () => new ApiError('The time limit for editing this message has passed'),
  topicEditTimeLimitPassed: () => new ApiError("The time limit for editing this message's topic has passed."),
  streamEditTimeLimitPassed: () => new ApiError("The time limit for editing this message's stream has passed"),
  noPermissionToMove: () => new ApiError("You don't have permission to move this message"),
  directMessageTopic: () => new ApiError('Direct messages cannot have topics.'),
  directMessageToStream: () => new ApiError('Direct messages cannot be moved to streams.'),
  propagateModeWithoutTopicEdit: () => new ApiError('Invalid propagate_mode without topic edit'),
  contentWithStreamChange: () => new ApiError('Cannot change message content while changing stream'),
  // SPEC PATCH /messages/{message_id}: the part of the topic the user may move.
  moveTimeLimitExceeded: (firstAllowedId: number | null, totalInTopic: number, totalAllowed: number) =>
    new ApiError(
      `You only have permission to move the ${totalAllowed}/${totalInTopic} most recent messages in this topic.`,
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      400,
      {
        first_message_id_allowed_to_move: firstAllowedId,
        total_messages_in_topic: totalInTopic,
        total_messages_allowed_to_move: totalAllowed,
      },
    ),
  editHistoryDisabled: () => new ApiError('Message edit history is disabled in this organization'),
  noPermissionToDelete: () => new ApiError("You don't have permission to delete this message"),
  deleteTimeLimitPassed: () => new ApiError('The time limit for deleting this message has passed'),
  messageAlreadyDeleted: () => new ApiError('Message already deleted'),
  // fetch: narrows, GET /messages and flags on a narrow (api-notes §b, §c, §f)
  badNarrow: (desc: string) => new ApiError(`Invalid narrow operator: ${desc}`, 'BAD_NARROW', 400, { desc }),
  invalidAnchor: () => new ApiError('Invalid anchor'),
  missingAnchor: () => new ApiError("Missing 'anchor' argument."),
  tooManyMessages: (max: number) => new ApiError(`Too many messages requested (maximum ${max}).`),
  anchorNotAtEnd: () => new ApiError('The anchor can only be excluded at an end of the range'),
  // typing: POST /typing (api-notes §f, openapi set-typing-status)
  emptyToList: () => new ApiError("Empty 'to' list"),
  multipleStreams: () => new ApiError('Cannot send to multiple streams'),
  missingTopic: () => new ApiError('Missing topic'),
  invalidUserId: (id: number) => new ApiError(`Invalid user ID ${id}`),
  invalidEmail: (email: string) => new ApiError(`Invalid email '${email}'`),
  typingDisabled: (kind: 'direct' | 'stream') => new ApiError(`User has disabled typing notifications for ${kind} messages`),
  // events: the event queue (api-notes §b GET /events, DELETE /events)
  badEventQueueId: (queueId: string) => new ApiError(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', 400, { queue_id: queueId }),
  eventAlreadyPruned: (lastEventId: number) => new ApiError(`An event newer than ${lastEventId} has already been pruned!`),
  eventNotInQueue: (lastEventId: number) => new ApiError(`Event ${lastEventId} was not in this queue`),
  // stream-reads: lookups of streams, subscribers and topics (api-notes §f, openapi get-stream-id)
  invalidStreamName: (name: string) => new ApiError(`Invalid stream name '${name}'`),
  noSuchUser: () => new ApiError('No such user'),
  // stream-prefs: subscription properties (SPEC POST /users/me/subscriptions/properties)
  notSubscribedToStream: (id: number) => new ApiError(`Not subscribed to stream id ${id}`),
  unknownSubscriptionProperty: (property: string) => new ApiError(`Unknown subscription property: ${property}`),
  invalidVisibilityPolicy: () => new ApiError('Invalid visibility_policy'),
  topicNotMuted: () => new ApiError('Topic is not muted'),
  // bot storage (the public server's StateError texts)
  mustBeBot: () => new ApiError('Must be a bot user'),
  botStorageKeyMissing: () => new ApiError('Key does not exist.'),
  botStorageLimit: (excess: number, limit: number) =>
    new ApiError(`Request exceeds storage limit by ${excess} characters. The limit is ${limit} characters.`),
  // POST /user_uploads past REALM_UPLOAD_QUOTA_MIB (the public server's RealmUploadQuotaError)
  uploadQuotaExceeded: () => new ApiError("Upload would exceed your organization's upload quota.", 'REALM_UPLOAD_QUOTA'),
  // PATCH /realm authentication_methods; the list as the public server prints it.
  invalidAuthenticationMethod: (name: string, known: readonly string[]) =>
    new ApiError(`Invalid authentication method: ${name}. Valid methods are: [${known.map((m) => `'${m}'`).join(', ')}]`),
  noAuthenticationMethod: () => new ApiError('At least one authentication method must be enabled.'),
  // A stream named both ways, or neither (the public server's check_for_exactly_one_stream_arg).
  streamArgumentMissing: () => new ApiError("Missing 'stream_id' argument"),
  incompatibleParameters: (names: readonly string[]) =>
    new ApiError(`Unsupported parameter combination: ${names.join(', ')}`, 'BAD_REQUEST', 400, { parameters: names.join(', ') }),
  privateStreamCannotBeDefault: () => new ApiError('Private streams cannot be made default.'),
  defaultStreamGroupExists: (name: string) => new ApiError(`Default stream group '${name}' already exists`),
  defaultStreamGroupNotFound: (id: number) => new ApiError(`Default stream group with id '${id}' does not exist.`),
  defaultStreamInGroup: (stream: string, group: string) =>
    new ApiError(`'${stream}' is a default stream and cannot be added to '${group}'`),
  streamAlreadyInGroup: (stream: string, group: string) =>
    new ApiError(`Stream '${stream}' is already present in default stream group '${group}'`),
  streamNotInGroup: (stream: string, group: string) => new ApiError(`Stream '${stream}' is not present in default stream group '${group}'`),
  groupAlreadyNamed: (name: string) => new ApiError(`This default stream group is already named '${name}'`),
  // Users, roles, deactivation, bots, muting (openapi update-user, deactivate-user, mute-user; api-notes §f)
  mustBeOwner: () => new ApiError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'),
  notAllowedForGuests: () => new ApiError('Not allowed for guest users'),
  notAllowedForBots: () => new ApiError('This endpoint does not accept bot requests.'),
  insufficientPermission: () => new ApiError('Insufficient permission'),
  invalidRole: () => new ApiError('Invalid role'),
  lastOwnerDemotion: () => new ApiError('The owner permission cannot be removed from the only organization owner.'),
  deactivateLastOwner: () => new ApiError('Cannot deactivate the only organization owner'),
  cannotDeactivateLastUser: (isLastOwner: boolean) =>
    new ApiError(`Cannot deactivate the only ${isLastOwner ? 'organization owner' : 'user'}.`, 'CANNOT_DEACTIVATE_LAST_USER', 400, {
      is_last_owner: isLastOwner,
      entity: isLastOwner ? 'organization owner' : 'user',
    }),
  userIsDeactivated: () => new ApiError('User is deactivated'),
  userAlreadyActive: () => new ApiError('User is already active'),
  noSuchBot: () => new ApiError('No such bot'),
  botNameTaken: () => new ApiError('Name is already in use!'),
  usernameTaken: () => new ApiError('Username already in use'),
  badNameOrUsername: () => new ApiError('Bad name or username'),
  invalidBotType: () => new ApiError('Invalid bot type'),
  invalidInterfaceType: () => new ApiError('Invalid interface type'),
  missingOutgoingWebhookUrl: () => new ApiError('Missing payload_url for outgoing webhook bot'),
  invalidEmbeddedBotName: () => new ApiError('Invalid embedded bot name.'),
  invalidBotConfig: (detail: string) => new ApiError(`Invalid configuration data! ${detail}`),
  ownerChangeNoSuchUser: () => new ApiError('Failed to change owner, no such user'),
  ownerChangeDeactivated: () => new ApiError('Failed to change owner, user is deactivated'),
  ownerChangeBot: () => new ApiError("Failed to change owner, bots can't own other bots"),
  cannotMuteSelf: () => new ApiError('Cannot mute self'),
  userAlreadyMuted: () => new ApiError('User already muted'),
  userNotMuted: () => new ApiError('User is not muted'),
  nothingToUpdateInGroup: () => new ApiError('You must pass "new_description" or "new_group_name".'),
  invalidGroupStreamsOp: () => new ApiError('Invalid value for "op". Specify one of "add" or "remove".'),
  // PATCH /settings and the email-change link
  invalidSetting: (name: string) => new ApiError(`Invalid ${name}`),
  invalidNotificationSound: (sound: string) => new ApiError(`Invalid notification sound '${sound}'`),
  invalidEmailBatchingPeriod: (seconds: string) => new ApiError(`Invalid email batching period: ${seconds} seconds`),
  // The public server's check_timezone text, named after the `timezone` parameter.
  notATimezone: () => new ApiError('timezone is not a recognized time zone'),
  nameChangesDisabled: () => new ApiError('Name changes are disabled in this organization. Contact an administrator to change your name.'),
  emailChangesDisabled: () => new ApiError('Email address changes are disabled in this organization.'),
  invalidAddress: () => new ApiError('Invalid address.'),
  // An email change to an address taken by an active or a deactivated account (the public
  // server's get_existing_user_errors, not verbose).
  emailTaken: (deactivated: boolean) => new ApiError(deactivated ? 'Account has been deactivated.' : 'Already has an account.'),
  wrongPassword: () => new ApiError('Wrong password!'),
  passwordTooWeak: () => new ApiError('New password is too weak!'),
  confirmationLinkInvalid: () => new ApiError('The confirmation link has expired or been deactivated.'),
  // User groups, profile fields, playgrounds, drafts (api-notes §b, openapi; texts as the public API words them)
  botRequestRefused: () => new ApiError('This endpoint does not accept bot requests.'),
  guestRequestRefused: () => new ApiError('Not allowed for guest users'),
  invalidUserGroup: () => new ApiError('Invalid user group'),
  userGroupExists: (name: string) => new ApiError(`User group '${name}' already exists.`),
  draftsSyncDisabled: () => new ApiError('User has disabled synchronizing drafts.'),
  draftDoesNotExist: () => new ApiError('Draft does not exist', 'BAD_REQUEST', 404),
  /** A URL no route matches, as the front end answers one (api-notes §Errors: unknown URL → 404). */
  urlNotFound: () => new ApiError('Not found', 'BAD_REQUEST', 404),
  // Uploads, attachments, avatars and realm emoji (api-notes POST /user_uploads, §f)
  fileNotFound: () => new ApiError('File not found', 'BAD_REQUEST', 404),
  invalidAttachment: () => new ApiError('Invalid attachment'),
  noFileToUpload: () => new ApiError('You must specify a file to upload'),
  oneFileAtATime: () => new ApiError('You may only upload one file at a time'),
  fileTooLarge: (limitMib: number) => new ApiError(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`),
  notEmojiAuthor: () => new ApiError('Must be an organization administrator or emoji author'),
  rangeNotSatisfiable: (size: number) =>
    new ApiError('Requested range not satisfiable', 'BAD_REQUEST', 416, {}, { 'Content-Range': `bytes */${size}` }),
  badImage: (msg: string) => new ApiError(msg, 'BAD_IMAGE'),
  imageNotDecodable: () => new ApiError('Could not decode image; did you upload an image file?', 'BAD_IMAGE'),
  emojiNameTaken: () => new ApiError('A custom emoji with this name already exists.'),
  invalidEmojiNameRules: () =>
    new ApiError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'),
  emojiNameEndsBadly: () => new ApiError('Emoji names must end with either a letter or digit.'),
  emojiNameEmpty: () => new ApiError('Emoji name is missing'),
  // Deleting an emoji the realm does not have: the public server's 400, naming it.
  noSuchEmoji: (name: string) => new ApiError(`Emoji '${name}' does not exist`),
  insufficientEmojiPermission: () => new ApiError('Insufficient permission'),
  avatarChangesDisabled: () => new ApiError('Avatar changes are disabled in this organization.'),
  oneImageRequired: () => new ApiError('You must upload exactly one avatar.'),
  oneEmojiRequired: () => new ApiError('You must upload exactly one file.'),
  // Status, presence, realm settings (openapi update-status, get-user-presence; PATCH /realm)
  noNewStatusValues: () => new ApiError('Client did not pass any new values.'),
  emojiNameRequiredForStatus: () => new ApiError('Client must pass emoji_name if they pass either emoji_code or reaction_type.'),
  stringTooLong: (name: string, limit: number) => new ApiError(`${name} is too long (limit: ${limit} characters)`),
  badValue: (name: string, value: string | number) =>
    new ApiError(`Bad value for '${name}': ${value}`, 'REQUEST_VARIABLE_INVALID', 400, { var_name: name, bad_value: value }),
  invalidLanguage: (code: string) => new ApiError(`Invalid language '${code}'`),
  noPresenceData: (email: string) => new ApiError(`No presence data for ${email}`),
  // Sign-in (api-notes §f, §Limits; openapi RateLimitedError): seconds as a float in the body,
  // whole seconds in the header.
  rateLimitHit: (retryAfterMs: number) =>
    new ApiError(
      'API usage exceeded rate limit',
      'RATE_LIMIT_HIT',
      429,
      { 'retry-after': retryAfterMs / 1000 },
      {
        'Retry-After': String(Math.ceil(retryAfterMs / 1000)),
      },
    ),
  // The web page's session is missing, unknown, expired, or its user deactivated.
  sessionRequired: () => new ApiError('Not logged in: API authentication or user session required', null, 401, {}, SESSION_CHALLENGE),
  sessionUserDeactivated: () => new ApiError('Account is deactivated', 'USER_DEACTIVATED', 401, {}, SESSION_CHALLENGE),
  // api-notes §f: session requests only, with a `reason`; the text is the public server's CsrfFailureError.
  csrfFailed: (reason: string) => new ApiError(`CSRF error: ${reason}`, 'CSRF_FAILED', 403, { reason }),
};
