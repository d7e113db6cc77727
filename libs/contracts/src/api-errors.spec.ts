import { API_ERROR_CODES, isApiErrorCode, type ApiErrorCode } from './api-errors';

/**
 * Pins the union: every code is listed here once, so adding, removing or renaming one fails
 * typecheck (a key missing or unknown) until this table and its clients agree. Clients branch
 * on these strings; renaming one silently would break them.
 */
const PINNED: Record<ApiErrorCode, true> = {
  validation_failed: true,
  body_not_json: true,
  body_too_large: true,
  body_too_complex: true,
  unsupported_media_type: true,
  bad_url: true,
  url_too_long: true,
  method_not_allowed: true,
  request_timeout: true,
  unauthenticated: true,
  invalid_credentials: true,
  operator_credential_required: true,
  bull_board_read_only: true,
  forbidden_origin: true,
  too_many_attempts: true,
  too_many_requests: true,
  conflict_email_taken: true,
  passwords_mismatch: true,
  password_rejected: true,
  wrong_current_password: true,
  printify_token_invalid: true,
  printify_not_connected: true,
  etsy_not_connected: true,
  reconnect_required: true,
  printify_shop_required: true,
  sync_from_date_invalid: true,
  provider_busy: true,
  provider_unavailable: true,
  provider_rejected: true,
  demo_ended: true,
  demo_unavailable: true,
  sandbox_unavailable: true,
  webhook_signature_invalid: true,
  webhook_stale: true,
  webhook_payload_invalid: true,
  matching_in_progress: true,
  export_in_progress: true,
  not_connected: true,
  rate_unavailable: true,
  unknown_job_name: true,
  bad_request: true,
  forbidden: true,
  not_found: true,
  conflict: true,
  service_unavailable: true,
  service_busy: true,
  internal: true,
};

describe('API_ERROR_CODES', () => {
  it('is exactly the pinned union, each code once', () => {
    expect([...API_ERROR_CODES].sort()).toEqual(Object.keys(PINNED).sort());
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });

  it('holds snake_case identifiers only', () => {
    for (const code of API_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('recognises its own codes and nothing else', () => {
    expect(isApiErrorCode('not_found')).toBe(true);
    expect(isApiErrorCode('Not Found')).toBe(false);
    expect(isApiErrorCode(404)).toBe(false);
    expect(isApiErrorCode(undefined)).toBe(false);
  });
});
