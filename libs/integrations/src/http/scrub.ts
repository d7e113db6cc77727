/** The provider's own error text from an error body: Etsy `error`, Printify `message`, OAuth `error_description`. */
export function upstreamMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() === '' || body.trimStart().startsWith('<') ? undefined : body;
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['error', 'message', 'error_description']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/**
 * One line of at most 300 characters with every secret value (and anything that looks like a
 * bearer token or an OAuth code parameter) replaced by [redacted].
 */
export function scrubSecrets(message: string | undefined, secrets: readonly string[]): string | undefined {
  if (message === undefined) return undefined;
  let text = message.replace(/[\r\n\u2028\u2029\t]+/g, ' ');
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  }
  text = text.replace(/(bearer\s+)\S+/gi, '$1[redacted]').replace(/((?:code|token|refresh_token|access_token|code_verifier|state)=)[^&\s]+/gi, '$1[redacted]');
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
