import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { isActiveMatchRunStatus, type MatchRunView, type MatchStatusResponse } from '@pod/contracts';
import { hasErrorCode } from '../../hooks/api/client';
import { API_PREFIX } from '../../hooks/api/keys';
import { queueMatchRun } from '../../hooks/api/orderActions';
import { ORDER_API } from '../../hooks/api/orderKeys';
import { resetByPrefix } from '../../hooks/api/mutateByPrefix';
import { refreshSyncStatus } from '../../hooks/api/useSyncStatus';
import { toaster } from '../ui/toaster';
import { ORDER_MSG } from './orderText';

/** How often the page asks for the run's progress while one is queued or running (one indexed row read). */
export const MATCH_POLL_MS = 1_500;
/** A progress read that failed is asked again this often, this many times, before the page says so. */
const MATCH_RETRY_MS = 3_000;
const MATCH_READ_ATTEMPTS = 3;

/** The error toast of a run that failed: the spec's text, then the run's own sentence. */
export function matchFailedText(reason: string | null | undefined): string {
  return reason ? `${ORDER_MSG.matchFailed}. ${reason}` : ORDER_MSG.matchFailed;
}

/** Why POST /api/orders/match was refused, when the seller can act on it (wait, try later). */
function startRefusedReason(error: unknown): string | null {
  if (hasErrorCode(error, 'too_many_attempts', 'service_unavailable')) return error.serverMessage ?? null;
  return null;
}

const createdAt = (run: Pick<MatchRunView, 'createdAt'>) => Date.parse(run.createdAt);

/**
 * "Match Orders" (Dashboard) and "Auto Match Orders" (Order Matching), one behaviour for both
 * (Part 2 §7): POST /api/orders/match only queues a run, so the page follows
 * GET /api/orders/match/status until the run has settled. Only then does the success toast show
 * and every order answer refresh; a failed run shows its sentence. A run found queued or running
 * when the page opens (started elsewhere, by another tab, or by a sync) shows as running too and
 * is followed the same way.
 */
export function useMatchRun(successText: string) {
  const [starting, setStarting] = useState(false);
  // The earliest run the page waits for (its createdAt): an answer about an older run is stale.
  const [waitingSince, setWaitingSince] = useState<string | null>(null);
  const failedReads = useRef(0);

  const polling = starting || waitingSince !== null;
  const {
    data: status,
    error,
    mutate,
  } = useSWR<MatchStatusResponse>(ORDER_API.matchStatus, {
    refreshInterval: polling ? MATCH_POLL_MS : 0,
    // Asked each time a page using it opens: a run may have started or ended meanwhile.
    revalidateOnMount: true,
    // An order change empties every order answer (this one included): keep showing the last one.
    keepPreviousData: true,
  });

  useEffect(() => {
    if (!status) return;
    failedReads.current = 0;
    const run = status.run;
    if (status.active && run) {
      if (waitingSince === null) setWaitingSince(run.createdAt);
      return;
    }
    if (
      waitingSince === null ||
      !run ||
      isActiveMatchRunStatus(run.status) ||
      createdAt(run) < Date.parse(waitingSince)
    )
      return;
    // The run waited for (or a later one, which matched everything it would have) has settled.
    setWaitingSince(null);
    if (run.status === 'succeeded') {
      toaster.success(successText);
      void resetByPrefix(...API_PREFIX.orderData);
      // The profit run it queued is still to put the figures in: the sync status says so and polls until it ends.
      void refreshSyncStatus();
    } else {
      toaster.error(matchFailedText(run.errorMessage));
    }
  }, [status, waitingSince, successText]);

  // SWR stops polling after a failed read: ask again a few times, then say the progress is unknown.
  useEffect(() => {
    if (!error || waitingSince === null) return;
    failedReads.current += 1;
    if (failedReads.current >= MATCH_READ_ATTEMPTS) {
      failedReads.current = 0;
      setWaitingSince(null);
      toaster.error(ORDER_MSG.matchProgressUnknown);
      return;
    }
    const retry = setTimeout(() => void mutate(), MATCH_RETRY_MS);
    return () => clearTimeout(retry);
  }, [error, waitingSince, mutate]);

  const running = starting || waitingSince !== null || (!error && status?.active === true);

  const start = async () => {
    if (running) return;
    setStarting(true);
    try {
      // The run queued now, or the one already queued that this request joined.
      const { run } = await queueMatchRun();
      setWaitingSince(run.createdAt);
      await mutate();
    } catch (caught) {
      toaster.error(matchFailedText(startRefusedReason(caught)));
    } finally {
      setStarting(false);
    }
  };

  return { running, start };
}
