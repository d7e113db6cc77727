import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * A provider (Etsy, Printify) failed us: 502 (it answered something we cannot use) or 503 (it
 * did not answer). The message is always one we wrote, so the error filter may pass it on,
 * unlike other 5xx errors whose details stay in the log.
 */
export class UpstreamFailureException extends HttpException {
  constructor(status: HttpStatus.BAD_GATEWAY | HttpStatus.SERVICE_UNAVAILABLE, message: string) {
    super(message, status);
  }
}
