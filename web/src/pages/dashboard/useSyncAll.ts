import { useState } from 'react';
import type { ConnectionsStatus, Provider } from '@pod/contracts';
import { toaster } from '../../components/ui/toaster';
import { hasErrorCode } from '../../hooks/api/client';
import { API_PREFIX } from '../../hooks/api/keys';
import { mutateByPrefix } from '../../hooks/api/mutateByPrefix';
import { startEtsySync, startPrintifySync } from '../../hooks/api/useSyncStatus';
import { PROVIDER_LABEL } from '../../components/sync/syncRunText';
import { SYNC_MSG } from './messages';

/** Where Sync All is: starting Etsy, then Printify. */
export type SyncAllStep = 'idle' | 'etsy' | 'printify';

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
  if (hasErrorCode(error, 'service_unavailable'))
    return { message: 'The sync could not be queued. Please try again shortly.', connectionsFix: false };
  return { message: `The ${label} sync could not be started. Please try again.`, connectionsFix: false };
}

/**
 * Sync All (spec §4, Part 2 §7): Etsy, then Printify — the shop chosen when Printify was
 * connected, every time (changing it is the Connections page's: asking on every Sync All made the
 * seller pick the same shop again each time) — then matching, which a sync queues by itself.
 * Only connected providers are asked; every refusal shows its toast and stays on the card.
 */
export function useSyncAll(connections: ConnectionsStatus | undefined) {
  const [step, setStep] = useState<SyncAllStep>('idle');
  const [problems, setProblems] = useState<Partial<Record<Provider, StartProblem>>>({});

  const refused = (provider: Provider, error: unknown) => {
    toaster.error(provider === 'etsy' ? SYNC_MSG.etsyFailed : SYNC_MSG.printifyFailed);
    setProblems((current) => ({ ...current, [provider]: startProblem(provider, error) }));
    // The connection changed since the page loaded: show it as it is now.
    if (hasErrorCode(error, 'etsy_not_connected', 'printify_not_connected', 'reconnect_required'))
      void mutateByPrefix(API_PREFIX.connections);
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
      setStep('printify');
      try {
        await startPrintifySync();
        toaster.success(SYNC_MSG.printifyStarted);
      } catch (error) {
        refused('printify', error);
      }
    }
    setStep('idle');
  };

  return { step, problems, syncAll };
}
