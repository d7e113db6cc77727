import { redactText } from '@pod/observability';

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

/** The provider's text as one line of at most 300 characters, redacted (see @pod/observability's redactText). */
export function scrubSecrets(message: string | undefined, secrets: readonly string[]): string | undefined {
  return message === undefined ? undefined : redactText(message, { maxLength: 300, knownSecrets: secrets });
}
