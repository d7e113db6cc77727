// What a seller reads about a sync run (GET /api/sync/status), shared by the Dashboard's
// "Sync & Match Orders" card and the Connections cards.
import type { Provider, SyncRunView } from '@pod/contracts';

export const PROVIDER_LABEL: Record<Provider, 'Etsy' | 'Printify'> = { etsy: 'Etsy', printify: 'Printify' };

export type RunTone = 'active' | 'waiting' | 'done' | 'error' | 'stopped';

export interface RunText {
  /** The state in a few words: "Syncing", "1,234 orders synced". */
  headline: string;
  /** The numbers or the reason under it. */
  detail: string | null;
  tone: RunTone;
}

const number = (n: number) => n.toLocaleString('en-US');
const counted = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;
const orders = (n: number) => counted(n, 'order', 'orders');

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
const time = (date: Date) => date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

/** "today at 3:05 PM", else "Nov 22, 2026, 1:05 PM", in the browser's zone. */
export function formatWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (sameDay(date, now)) return `today at ${time(date)}`;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** "resumes at 3:05 PM" today, else "resumes on Nov 24 at 3:05 PM". */
function resumes(iso: string | null, provider: Provider, now: Date): string {
  if (!iso) return `resumes when ${PROVIDER_LABEL[provider]} allows`;
  const date = new Date(iso);
  if (sameDay(date, now)) return `resumes at ${time(date)}`;
  return `resumes on ${date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} at ${time(date)}`;
}

const progressSoFar = (run: SyncRunView) =>
  `${counted(run.pagesDone, 'page', 'pages')} · ${orders(run.ordersDone)} so far`;

function soFar(run: SyncRunView): string {
  return run.pagesDone === 0 ? 'Reading the first page of orders…' : progressSoFar(run);
}

/** The words for a run in each of its six states. */
export function describeRun(run: SyncRunView, now = new Date()): RunText {
  switch (run.status) {
    case 'queued':
      return { headline: 'Waiting to start', detail: 'The sync is queued and starts in a moment.', tone: 'active' };
    case 'running':
      return {
        headline: 'Syncing',
        detail: run.percent === null ? soFar(run) : `${run.percent}% · ${soFar(run)}`,
        tone: 'active',
      };
    case 'waiting_for_quota':
      return {
        headline: `Waiting for the daily quota — ${resumes(run.resumeAt, run.provider, now)}`,
        detail: `${PROVIDER_LABEL[run.provider]} allows only so many requests a day; the sync carries on by itself.${run.pagesDone > 0 ? ` ${progressSoFar(run)}.` : ''}`,
        tone: 'waiting',
      };
    case 'succeeded': {
      if (run.ordersDone === 0) return { headline: 'Up to date', detail: 'No new or changed orders.', tone: 'done' };
      const parts = [
        run.ordersAdded > 0 ? `${number(run.ordersAdded)} new` : null,
        run.ordersChanged > 0 ? `${number(run.ordersChanged)} updated` : null,
      ];
      return { headline: `${orders(run.ordersDone)} synced`, detail: parts.filter(Boolean).join(', '), tone: 'done' };
    }
    case 'failed':
      return {
        headline: 'Sync failed',
        detail: run.errorMessage ?? 'Something went wrong. Please try again.',
        tone: 'error',
      };
    case 'interrupted':
      return {
        headline: 'Sync stopped before it finished',
        detail: 'Sync again to continue where it left off.',
        tone: 'stopped',
      };
  }
}
