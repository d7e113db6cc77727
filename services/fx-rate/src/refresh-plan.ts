import { daysBetweenIsoDates, isTargetDay, nextTargetDay } from '@pod/domain';
import type { EcbFileName } from '@pod/integrations';

/** The 90-day file reaches about 90 calendar days back: past this gap only the history covers it. */
const NINETY_DAY_FILE_REACH_DAYS = 85;

/**
 * Which ECB file brings fx_rate up to date, from the newest stored day and today's date (UTC):
 * nothing stored → the whole history (zipped CSV, the smallest download of it); a gap too old
 * for the 90-day file → the history again; more than one business day missing → the 90-day
 * file (it fills every missing day at once); else the daily file, which holds the one latest day.
 */
export function planRefresh(
  latestStored: string | null,
  today: string,
): Extract<EcbFileName, 'daily' | 'last90Days' | 'historyZip'> {
  if (latestStored === null) return 'historyZip';
  const ageDays = daysBetweenIsoDates(latestStored, today);
  if (ageDays > NINETY_DAY_FILE_REACH_DAYS) return 'historyZip';
  let missing = 0;
  for (let day = nextTargetDay(latestStored); day <= today && missing < 2; day = nextTargetDay(day))
    if (isTargetDay(day)) missing += 1;
  return missing > 1 ? 'last90Days' : 'daily';
}
