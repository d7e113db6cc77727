import { useState } from 'react';
import type { ConnectionsStatus, PrintifyShopView, Provider } from '@pod/contracts';
import { toaster } from '../../components/ui/toaster';
import { hasErrorCode } from '../../hooks/api/client';
import { API_PREFIX } from '../../hooks/api/keys';
import { mutateByPrefix } from '../../hooks/api/mutateByPrefix';
import { fetchPrintifyShops, startEtsySync, startPrintifySync } from '../../hooks/api/useSyncStatus';
import { PROVIDER_LABEL } from '../../components/sync/syncRunText';
import { SYNC_MSG } from './messages';

/** Where Sync All is: starting Etsy, asking Printify for its shops, waiting for a shop choice, starting Printify. */
export type SyncAllStep = 'idle' | 'etsy' | 'shops' | 'choosing' | 'printify';

/** Why a start was refused, for the card (the toast says which sync failed). */
export interface StartProblem {
  message: string;
  /** The fix is on the Connections page (not connected, or needs reconnecting). */
  connectionsFix: boolean;
}

function startProblem(provider: Provider, error: unknown): StartProblem {
  const label = PROVIDER_LABEL[provider];
  if (hasErrorCode(error, 'etsy_not_connected', 'printify_not_connected'))
    return { message: `${label} is not connected.`, connectionsFix: true };
  if (hasErrorCode(error, 'reconnect_required'))
    return { message: `${label} needs reconnecting before it can sync.`, connectionsFix: true };
  if (hasErrorCode(error, 'too_many_attempts'))
    return { message: error.serverMessage ?? 'Too many sync requests. Please wait a minute.', connectionsFix: false };
  if (hasErrorCode(error, 'not_found'))
    return { message: 'That Printify shop is not one of your account’s shops any more.', connectionsFix: false };
  if (hasErrorCode(error, 'service_unavailable'))
    return { message: 'The sync could not be queued. Please try again shortly.', connectionsFix: false };
  return { message: `The ${label} sync could not be started. Please try again.`, connectionsFix: false };
}

/**
 * Sync All (spec §4, Part 2 §7): Etsy, then Printify — through the "Select Printify Shop" dialog
 * when the account has more than one shop — then matching, which arrives with the matcher. Only
 * connected providers are asked; every refusal shows its toast and stays on the card.
 */
export function useSyncAll(connections: ConnectionsStatus | undefined) {
  const [step, setStep] = useState<SyncAllStep>('idle');
  const [shops, setShops] = useState<PrintifyShopView[] | null>(null);
  const [shopId, setShopId] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Provider, StartProblem>>>({});

  const refused = (provider: Provider, error: unknown) => {
    toaster.error(provider === 'etsy' ? SYNC_MSG.etsyFailed : SYNC_MSG.printifyFailed);
    setProblems((current) => ({ ...current, [provider]: startProblem(provider, error) }));
    // The connection changed since the page loaded: show it as it is now.
    if (hasErrorCode(error, 'etsy_not_connected', 'printify_not_connected', 'reconnect_required'))
      void mutateByPrefix(API_PREFIX.connections);
  };

  const syncPrintify = async (chosen?: string) => {
    setStep('printify');
    try {
      await startPrintifySync(chosen);
      toaster.success(SYNC_MSG.printifyStarted);
      setShops(null);
      setStep('idle');
    } catch (error) {
      refused('printify', error);
      // A refusal keeps the dialog open to choose again or cancel.
      setStep(chosen === undefined ? 'idle' : 'choosing');
    }
  };

  const syncAll = async () => {
    if (!connections || step !== 'idle') return;
    setProblems({});
    if (connections.etsy.connected) {
      setStep('etsy');
      try {
        await startEtsySync();
        toaster.success(SYNC_MSG.etsyStarted);
      } catch (error) {
        refused('etsy', error); // Printify syncs on its own regardless.
      }
    }
    if (connections.printify.connected) {
      setStep('shops');
      // Not knowing the shops (Printify slow or down) means syncing the connected one; the start says if that fails.
      const known = await fetchPrintifyShops().catch(() => [] as PrintifyShopView[]);
      if (known.length > 1) {
        const connected = connections.printify.shopId;
        setShopId(connected && known.some((shop) => String(shop.id) === connected) ? connected : '');
        setShops(known);
        setStep('choosing');
        return;
      }
      await syncPrintify();
      return;
    }
    setStep('idle');
  };

  const chooseShop = () => {
    if (!shopId) {
      toaster.error(SYNC_MSG.selectShop);
      return;
    }
    void syncPrintify(shopId);
  };

  const cancelShopChoice = () => {
    setShops(null);
    setStep('idle');
  };

  return { step, shops, shopId, setShopId, problems, syncAll, chooseShop, cancelShopChoice };
}
