/**
 * The statements that legitimately reach tenant rows without naming one user (security test plan
 * item 24, ADR 0015 and its amendment of 2026-11-28). Each entry names the method and why. The
 * static check fails on a finding not listed here, and on an entry whose method is gone or no
 * longer needs it. Under row-level security such a statement reaches across users only through
 * a SECURITY DEFINER function (migration 1765400000000): `definer` names the one an entry calls,
 * and no method outside this list may call one.
 */
export interface CrossTenantEntry {
  /** `Class.method` as the scan names it. */
  owner: string;
  why: string;
  /** The SECURITY DEFINER function it calls (CROSS_USER_FUNCTIONS). */
  definer?: string;
}

const SYNC_RUN_BY_ID =
  'The sync worker and the reconciler act on the run their job names: the sync payload carries only the run id; its owner comes from sync_run_owner and every statement then runs scoped to that owner, each write a compare-and-set on the run.';

export const CROSS_TENANT_ALLOWLIST: readonly CrossTenantEntry[] = [
  // The Orders search: not cross-user, but SECURITY DEFINER so that the trigram index can answer it under RLS.
  {
    owner: 'OrderViewsRepository.hitsSql',
    why: 'The Orders search runs as the table owner so that ILIKE can be an index condition (RLS keeps it out of one); order_search_hits takes only the term and reads the user from the transaction scope (app.user_id), so it answers only that user and nothing unscoped (migration 1765520000000).',
    definer: 'order_search_hits',
  },
  {
    owner: 'OrderDetailsRepository.candidates',
    why: "The Manual Order Matching dialog's search uses the Orders search's hits (issue 18): order_search_hits takes only the term and reads the user from the transaction scope (app.user_id), so it answers only that user (migration 1765520000000).",
    definer: 'order_search_hits',
  },
  // The scheduler: the resync fan-out pages through every connected shop.
  {
    owner: 'ConnectionsRepository.listConnectedAfter',
    why: 'The scheduled resync fans out to every connected shop, in pages by id (owner, provider, shop only).',
    definer: 'connected_shops_after',
  },
  // Provider webhooks: the delivery names a key or a shop, never our user.
  {
    owner: 'ConnectionsRepository.findPrintifyWebhookTarget',
    why: 'A Printify delivery names only its unguessable webhook key: the function answers its owner, whose row is then read scoped; the signature proves the delivery.',
    definer: 'printify_webhook_owner',
  },
  {
    owner: 'ConnectionsRepository.listEtsyConnectionsOfShop',
    why: 'An Etsy delivery names only the shop; every connected user of that shop gets a sync (connection id and owner only).',
    definer: 'etsy_connections_of_shop',
  },
  // Credentials that are themselves the key: an OAuth state hash, a session id hash, an email to sign in.
  {
    owner: 'OAuthStatesRepository.find',
    why: "Explains why a callback's consume failed (expired, used, another session's): looked up by the state's hash, which only its owner's browser held.",
    definer: 'oauth_state_by_hash',
  },
  {
    owner: 'SessionsRepository.findWithUser',
    why: 'The session check on every request, before the user is known: the session id hash (the credential) and the user its JWT claims, in one statement.',
    definer: 'session_with_user',
  },
  {
    owner: 'SessionsRepository.touch',
    why: 'Keyed by the SHA-256 of the session id, the credential itself; the guard read the row for its user just before.',
    definer: 'touch_session',
  },
  {
    owner: 'SessionsRepository.delete',
    why: 'Sign-out and a rejected token end the session by its id hash (the credential), whoever it belongs to.',
    definer: 'end_session',
  },
  {
    owner: 'UsersRepository.idByEmail',
    why: 'Sign-in and sign-up know only the email: the function answers the id alone, and the account is then read scoped to it.',
    definer: 'user_id_by_email',
  },
  {
    owner: 'DemoAccountsRepository.removeExpired',
    why: 'The demo sweep removes expired and evicted demo accounts of any user, under its advisory lock, answering which went.',
    definer: 'sweep_demo_accounts',
  },
  // The matcher's job and the fx-rate re-figuring.
  {
    owner: 'MatchRunsRepository.ownerOf',
    why: 'A match-user job carries only the run id: this finds its owner (and nothing else); the run is then taken, matched and finished scoped to that user.',
    definer: 'match_run_owner',
  },
  {
    owner: 'OrderProfitsRepository.usersToRefigure',
    why: 'refigure-profits (after new ECB rates) finds the users whose figures may change; each is then recomputed in its own scoped job.',
    definer: 'users_to_refigure',
  },
  // The sync worker and the reconciler (gateway sync maintenance).
  { owner: 'SyncRunsRepository.ownerOf', why: SYNC_RUN_BY_ID, definer: 'sync_run_owner' },
  {
    owner: 'SyncRunsRepository.listStaleActive',
    why: 'The reconciler finds active runs of any user not touched for a while (id and owner), each then read scoped to its owner.',
    definer: 'stale_active_sync_runs',
  },
  { owner: 'SyncRunsRepository.findById', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.markRunning', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.recordPage', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.waitForQuota', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.finish', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.fail', why: SYNC_RUN_BY_ID },
  { owner: 'SyncRunsRepository.interrupt', why: SYNC_RUN_BY_ID },
  {
    owner: 'SyncRunsRepository.touch',
    why: 'The reconciler marks a stale run it re-enqueued, by id (scoped to the owner sync_run_owner answers).',
  },
  // Key rotation (security plan item 27), an operator command.
  {
    owner: 'TokenReencryption.run',
    why: 'The operator re-encryption pass walks app_user ids (as the login) and moves each user’s secrets in a transaction scoped to that user.',
  },
];
