/**
 * The one list of `code`s an API error body can carry. Clients (the web app, tests, scripts)
 * branch on `code`, never on `message`, whose wording the product spec may change. Adding a
 * code is one line here; the gateway's `ApiException` accepts only these.
 */
export const API_ERROR_CODES = [
  // The request itself
  'validation_failed', // a body, query or route parameter failed validation (`field` names the first one)
  'body_not_json', // the body is not valid JSON
  'body_too_large', // 413
  'body_too_complex', // nested too deeply or too many fields
  'unsupported_media_type', // 415: a body that is not application/json
  'bad_url', // a malformed URL
  'url_too_long', // 414, or a route parameter past its length
  'method_not_allowed', // 405
  'request_timeout', // 408
  // Who is asking
  'unauthenticated', // no valid session: sign in
  'invalid_credentials', // wrong email or password at sign-in
  'operator_credential_required', // /api/admin without the operator token
  'bull_board_read_only', // a change Bull Board may not make (BULL_BOARD_MODE)
  'forbidden_origin', // a browser write from another origin
  'too_many_attempts', // 429 from our own throttles (Retry-After says when)
  'too_many_requests', // 429: this user already has as many requests in flight and waiting as one gateway takes (Retry-After says when)
  // Accounts
  'conflict_email_taken',
  'passwords_mismatch',
  'password_rejected', // too short, too long or too common
  'wrong_current_password',
  // Connections and providers
  'printify_token_invalid',
  'printify_not_connected',
  'etsy_not_connected',
  'reconnect_required', // 409: the provider refused the stored access; connect it again
  'printify_shop_required',
  'sync_from_date_invalid',
  'provider_busy', // 429: Etsy or Printify asks us to wait (Retry-After says how long)
  'provider_unavailable', // 503: the provider did not answer
  'provider_rejected', // 502: the provider answered something we cannot use
  // Demo
  'demo_ended', // 410: the demo account or its sandbox seller is gone
  'demo_unavailable',
  'sandbox_unavailable',
  // Provider webhooks (/api/webhooks/*)
  'webhook_signature_invalid', // 401: the delivery's signature is missing, malformed or wrong
  'webhook_stale', // 401: an Etsy delivery's timestamp is more than 5 minutes away from now
  'webhook_payload_invalid', // 400: a signed delivery whose body is not what the provider documents
  // Orders
  'matching_in_progress', // 409: a match or profit run holds the user's orders; the change was not made, try again shortly
  'export_in_progress', // 429: the user's CSV export is still running (one at a time, across gateways)
  // Profit settings
  'not_connected', // 409: the setting belongs to a provider the user has not connected
  // Exchange rates
  'rate_unavailable', // 404: no ECB rate for that currency and date (not published by the ECB, or not loaded yet)
  // Operators
  'unknown_job_name',
  // Anything else
  'bad_request', // a 4xx no other code describes
  'forbidden',
  'not_found',
  'conflict',
  'service_unavailable', // a dependency of ours (Redis) does not answer
  'service_busy', // 503: the database did not answer the session check in time; retry (Retry-After), the session still stands
  'internal', // 500: details only in the log, the body carries a requestId
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** Every non-2xx JSON answer of `/api`. */
export interface ApiErrorBody {
  statusCode: number;
  /** The HTTP status text ("Bad Request"). */
  error: string;
  /** For people; never parsed. */
  message: string;
  code: ApiErrorCode;
  /** With `validation_failed` and the account codes: the input field the error is about. */
  field?: string;
  /** With 5xx: quote it to support; the log has the detail. */
  requestId?: string;
}

const CODES: ReadonlySet<string> = new Set(API_ERROR_CODES);

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && CODES.has(value);
}
