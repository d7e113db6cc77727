import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../http/api-exception';

/** The furthest any time zone is ahead of UTC: "today" somewhere may be tomorrow in UTC. */
const MAX_ZONE_AHEAD_MS = 14 * 3600 * 1000;
const EARLIEST = '2000-01-01';

/**
 * "Sync orders from" must be a real calendar date, not in the future (in the seller's zone,
 * whichever it is), and not absurdly early. Returns the date or null for "sync everything".
 */
export function checkSyncFromDate(value: string | undefined, now: Date): string | null {
  if (value === undefined) return null;
  const [year, month, day] = value.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw invalidDate('Please enter a valid sync start date');
  }
  const latest = new Date(now.getTime() + MAX_ZONE_AHEAD_MS).toISOString().slice(0, 10);
  if (value > latest) throw invalidDate('The sync start date cannot be in the future');
  if (value < EARLIEST) throw invalidDate(`The sync start date cannot be before ${EARLIEST}`);
  return value;
}

const invalidDate = (message: string) =>
  new ApiException(HttpStatus.BAD_REQUEST, 'sync_from_date_invalid', message, { field: 'syncFromDate' });
