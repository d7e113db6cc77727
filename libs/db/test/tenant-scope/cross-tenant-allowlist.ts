/**
 * The statements that legitimately reach tenant rows without naming one user (security test plan
 * item 24, ADR 0015). Each entry names the method and why. The static check fails on a finding
 * not listed here, and on an entry whose method is gone or no longer needs it; `allTenants`
 * marks the few allowed to open the RLS escape (`withAllTenants`), and only those may.
 */
export interface CrossTenantEntry {
  /** `Class.method` as the scan names it. */
  owner: string;
  why: string;
  /** Reads an RLS table across users, so it runs under withAllTenants (app.all_tenants = 'on', read-only). */
  allTenants?: true;
}

const SYNC_RUN_BY_ID =
  'The sync worker and the reconciler act on the run their job names: the sync payload carries only the run id and the row names its owner; every write is a compare-and-set on the run. sync_run is not under RLS (issue 8).';

export const CROSS_TENANT_ALLOWLIST: readonly CrossTenantEntry[] = [
  // The scheduler: the resync fan-out pages through every connected shop.
  { owner: 'ConnectionsRepository.listConnectedAfter', why: 'The scheduled resync fans out to every connected shop, in pages by id (owner, provider, shop only).' },
  // Provider webhooks: the delivery names a key or a shop, never our user.
  { owner: 'ConnectionsRepository.findPrintifyWebhookTarget', why: "A Printify delivery names only its unguessable webhook key; the row names the owner, the signature proves the delivery." },
  { owner: 'ConnectionsRepository.listEtsyConnectionsOfShop', why: 'An Etsy delivery names only the shop; every connected user of that shop gets a sync.' },
  // Credentials that are themselves the key: an OAuth state hash, a session id hash.
  { owner: 'OAuthStatesRepository.find', why: "Explains why a callback's consume failed (expired, used, another session's): looked up by the state's hash, which only its owner's browser held." },
  { owner: 'SessionsRepository.touch', why: 'Keyed by the SHA-256 of the session id, the credential itself; the guard read the row for its user just before.' },
  { owner: 'SessionsRepository.delete', why: 'Sign-out and a rejected token end the session by its id hash (the credential), whoever it belongs to.' },
  // The matcher's job and the fx-rate re-figuring.
  { owner: 'MatchRunsRepository.ownerOf', why: 'A match-user job carries only the run id: this finds its owner (and nothing else); the run is then taken, matched and finished scoped to that user.', allTenants: true },
  { owner: 'OrderProfitsRepository.usersToRefigure', why: 'refigure-profits (after new ECB rates) finds the users whose figures may change; each is then recomputed in its own scoped job.', allTenants: true },
  // The sync worker and the reconciler (gateway sync maintenance).
  { owner: 'SyncRunsRepository.findById', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.markRunning', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.recordPage', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.waitForQuota', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.finish', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.fail', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.interrupt', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.casUpdate', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.anyActiveUpdate', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.listStaleActive', why: 'The reconciler finds active runs of any user not touched for a while, to re-enqueue or interrupt them.' },
  { owner: 'SyncRunsRepository.touch', why: 'The reconciler marks a stale run it re-enqueued, by id.' },
];
