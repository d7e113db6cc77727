/** U+0000, or a surrogate half without its partner: PostgreSQL refuses the first, UTF-8 cannot encode the second. */
// eslint-disable-next-line no-control-regex -- matching U+0000 is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isUnsafeText(text: string): boolean {
  return UNSAFE_TEXT.test(text);
}

/**
 * The path of the first string (a value or a key) holding unsafe text in a validated request
 * value, or null. The value is already bounded by the body parser (depth and field count).
 */
export function findUnsafeText(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return isUnsafeText(value) ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  for (const [key, item] of Object.entries(value)) {
    if (isUnsafeText(key)) return path;
    const found = findUnsafeText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}
