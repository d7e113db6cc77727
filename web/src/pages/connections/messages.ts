// Every text of the Connections screen that a test or the spec names (spec §5, §8). Those the
// gateway answers with too come from @pod/contracts.
import { PROVIDER_MESSAGES } from '@pod/contracts';
import type { Confirmation } from '../../components/ConfirmDialog';

export const MSG = {
  loading: 'Loading connections...',
  emptyToken: PROVIDER_MESSAGES.emptyPrintifyToken,
  invalidToken: PROVIDER_MESSAGES.invalidPrintifyToken,
  selectShop: PROVIDER_MESSAGES.selectPrintifyShop,
  etsyInitFailed: 'Failed to initiate Etsy connection',
  printifyConnectFailed: 'Failed to connect to Printify. Please check your token.',
  disconnectFailed: 'Failed to disconnect service',
  printifyConnected: 'Printify connected successfully',
  disconnected: (service: 'Etsy' | 'Printify') => `${service} disconnected successfully`,
  etsyConnected: 'Etsy connected successfully',
  etsyCancelled: 'Etsy connection was cancelled',
  etsyFailed: 'Failed to connect Etsy. Please try again.',
  etsyNoShop: 'Failed to connect Etsy. This Etsy account has no shop yet.',
} as const;

/** "Disconnect Etsy?": asked before a connection and its stored tokens are removed. */
export function disconnectConfirmation(service: 'Etsy' | 'Printify'): Confirmation {
  return {
    title: `Disconnect ${service}?`,
    message: `Are you sure you want to disconnect ${service}? PodProfit will stop syncing its orders and delete the stored access ${service === 'Etsy' ? 'tokens' : 'token'}. Orders already synced stay.`,
    confirmLabel: 'Disconnect',
    pendingLabel: 'Disconnecting...',
  };
}

/** Last sync as "Nov 22, 2026, 1:05 PM" in the browser's zone. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Date(year, month - 1, day).toLocaleDateString('en-US', { dateStyle: 'medium' });
}

/** Today as YYYY-MM-DD in the browser's zone (the latest "sync from" date). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
