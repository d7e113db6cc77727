import { parseExpression } from 'cron-parser';

/** A 5- or 6-field cron pattern BullMQ's job schedulers (cron-parser) accept. */
export function isCronPattern(value: string): boolean {
  const fields = value.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return false;
  try {
    parseExpression(value, { tz: 'UTC' }).next();
    return true;
  } catch {
    return false;
  }
}

/** An IANA zone name the runtime knows. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
