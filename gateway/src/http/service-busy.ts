import { HttpStatus } from '@nestjs/common';
import { ApiException } from './api-exception';

/** What a client hears when PostgreSQL did not answer in time: nothing is wrong with the request or the session. */
export const SERVICE_BUSY_MESSAGE = 'Service busy, retrying. Please wait a moment.';
export const SERVICE_BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * 503 `service_busy` with Retry-After: the web app keeps the user signed in and asks again.
 * The session check answers it when the session store did not answer; the error filter answers
 * it for any route whose database work could not get a connection (pool wait timed out, the
 * server refusing or restarting).
 */
export function serviceBusy(): ApiException {
  return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'service_busy', SERVICE_BUSY_MESSAGE, {
    retryAfterSeconds: SERVICE_BUSY_RETRY_AFTER_SECONDS,
  });
}
