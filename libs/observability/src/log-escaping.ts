/** C0 and C1 controls, DEL, and the two Unicode line separators. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Writes control characters as visible escapes ("\n", "\u001b"), so no input can start a line or drive a terminal. */
export function escapeControlCharacters(text: string): string {
  return text.replace(
    CONTROL_CHARACTERS,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const MAX_ESCAPE_DEPTH = 8;

/**
 * A copy of a log call's fields with every string (keys too) escaped. Only plain objects and
 * arrays are walked; anything else (errors, requests) is left to its serializer.
 */
export function escapeLoggedStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return escapeControlCharacters(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_ESCAPE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => escapeLoggedStrings(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    copy[escapeControlCharacters(key)] = escapeLoggedStrings(item, depth + 1);
  return copy;
}
