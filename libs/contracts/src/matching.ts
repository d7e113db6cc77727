/**
 * Match runs: queued → running → succeeded | failed. At most one run per user is queued (a
 * partial unique index); triggers while it waits join it.
 */
export const MATCH_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type MatchRunStatus = (typeof MATCH_RUN_STATUSES)[number];

/** user: "Match Orders"; sync: a sync announced new or changed orders; operator: the queue view. */
export const MATCH_RUN_TRIGGERS = ['user', 'sync', 'operator'] as const;
export type MatchRunTrigger = (typeof MATCH_RUN_TRIGGERS)[number];

export function isActiveMatchRunStatus(status: MatchRunStatus): boolean {
  return status === 'queued' || status === 'running';
}
