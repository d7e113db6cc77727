import type { MoneyView } from '@pod/contracts';
import { formatMinorUnits } from '@pod/domain';

/** "$1,234.56": the API's minor units in its currency (spec §9 symbols, exactly two decimals). */
export function formatMoney(value: MoneyView): string {
  return formatMinorUnits(value.minor, value.currency);
}

/** A percent the API computed (23.4 → "23.4%"); `digits` 1 on details and metric cards, 0 on the sync card. */
export function formatPercent(value: number, digits: 0 | 1): string {
  const shown = value.toFixed(digits);
  // -0.0 reads as a loss that is not there.
  return `${/^-0(\.0)?$/.test(shown) ? shown.slice(1) : shown}%`;
}

/** "Nov 24, 2026" (en-US), or null without a date. */
export function formatOrderDate(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/** An ECB day ("2026-11-24", a calendar date) as "Nov 24, 2026", the same in every time zone. */
export function formatCalendarDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}
