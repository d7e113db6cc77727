/** Shapes of the matching routes under /api/orders. */
import type { MatchRunStatus, MatchRunTrigger } from '../matching';

/**
 * POST /api/orders/match (no body): 202 with the run now queued for the user, or the one
 * already queued (`alreadyQueued` true then). The web app polls GET /api/orders/match/status.
 */
export interface MatchStartResponse {
  run: MatchRunView;
  alreadyQueued: boolean;
}

export interface MatchRunView {
  id: string;
  status: MatchRunStatus;
  trigger: MatchRunTrigger;
  recordsAdded: number;
  recordsChanged: number;
  recordsRemoved: number;
  /** A sentence for the user; never internals. */
  errorMessage: string | null;
  /** ISO 8601. */
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** GET /api/orders/match/status: the user's latest run (null if none) and whether one is queued or running. */
export interface MatchStatusResponse {
  run: MatchRunView | null;
  active: boolean;
}
