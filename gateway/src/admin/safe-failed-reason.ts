import { redactText } from '@pod/observability';

/**
 * A job's failure reason as shown to an operator: one line, at most 200 characters, redacted
 * (see redactText). Handlers should throw safe messages anyway; this guards against one that
 * echoes an upstream response.
 */
export function safeFailedReason(reason: string | undefined | null): string | null {
  return reason ? redactText(reason, { maxLength: 200 }) : null;
}
