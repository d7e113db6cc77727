import { HttpException } from '@nestjs/common';
import type { ApiErrorCode } from '@pod/contracts';

export interface ApiExceptionOptions {
  /** The input field the error is about (sign-up marks it). */
  field?: string;
  /** Sent as `Retry-After` (429, and 503 when we know). */
  retryAfterSeconds?: number;
}

/**
 * The gateway's one error to throw: a status, a stable `code` from @pod/contracts and a message
 * of ours for people. Below 500 the error filter passes the message on; at 502/503 too (we
 * wrote it); a 500 never carries one.
 */
export class ApiException extends HttpException {
  readonly field?: string;
  readonly retryAfterSeconds?: number;

  constructor(
    status: number,
    readonly code: ApiErrorCode,
    message: string | string[],
    options: ApiExceptionOptions = {},
  ) {
    super({ message }, status);
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
