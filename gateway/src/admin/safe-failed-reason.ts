/**
 * A job's failure reason as shown to an operator: one line, at most 200 characters, with
 * anything shaped like a credential or a query string blanked. Handlers should throw safe
 * messages anyway; this guards against one that echoes an upstream response.
 */
export function safeFailedReason(reason: string | undefined | null): string | null {
  if (!reason) return null;
  const redacted = reason
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\bBearer\s+\S+/gi, 'Bearer [redacted]')
    .replace(/\b(token|access_token|refresh_token|secret|password|api[_-]?key|x-api-key|keystring|authorization|code|state)(["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&"']+)/gi, '$1$2[redacted]')
    .replace(/(https?:\/\/[^\s?#]+)\?[^\s#]*/gi, '$1?[redacted]');
  return redacted.length > 200 ? `${redacted.slice(0, 199)}…` : redacted;
}
