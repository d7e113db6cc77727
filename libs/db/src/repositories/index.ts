import { AnalyticsRepository } from './analytics.repository';
import { DatabaseProbe } from './database-session';
import { DemoAccountsRepository } from './demo-accounts.repository';
import { EtsyTokensRepository } from './etsy-tokens.repository';
import { FxRatesRepository } from './fx-rates.repository';
import { MatchRunsRepository } from './match-runs.repository';
import { MatchingInputsRepository } from './matching-inputs.repository';
import { OAuthStatesRepository } from './oauth-states.repository';
import { OrderDetailsRepository } from './order-details.repository';
import { OrderEditsService } from './order-edits.service';
import { OrderExportRepository } from './order-export.repository';
import { OrderRecordsRepository } from './order-records.repository';
import { OrderViewsRepository } from './order-views.repository';
import { PayoutsRepository } from './payouts.repository';
import { ProfitSettingsRepository } from './profit-settings.repository';
import { SessionsRepository } from './sessions.repository';
import { SyncCursorsRepository } from './sync-cursors.repository';
import { SyncRunsRepository } from './sync-runs.repository';
import { UserDataRepository } from './user-data.repository';
import { UsersRepository } from './users.repository';

export * from './analytics.repository';
export * from './connections.repository';
export * from './dashboard-rollups.repository';
export * from './database-session';
export * from './demo-accounts.repository';
export * from './etsy-orders.repository';
export * from './etsy-tokens.repository';
export * from './fx-rates.repository';
export * from './match-runs.repository';
export * from './matching-inputs.repository';
export * from './oauth-states.repository';
export * from './token-reencryption';
export * from './order-views.repository';
export * from './order-list-sort';
export * from './order-counts.repository';
export * from './order-details.repository';
export * from './order-edits.service';
export * from './order-export.repository';
export * from './order-profits.repository';
export * from './order-records.repository';
export * from './printify-orders.repository';
export * from './profit-inputs.repository';
export * from './payouts.repository';
export * from './profit-settings.repository';
export { payoutRowOf } from './payouts-sql';
export * from './sessions.repository';
export * from './shop-costs.repository';
export * from './sync-cursors.repository';
export * from './sync-quarantine.repository';
export * from './sync-runs.repository';
export { jsonForPostgres, payloadHash, type UpsertCounts } from './synced-rows';
export * from './table-statistics.repository';
export * from './tenant-scope';
export * from './user-data.repository';
export * from './users.repository';

/**
 * The repositories built from the process's DataSource alone, for dependency injection
 * (ConnectionsRepository also needs the TokenCipher and is wired where the cipher is).
 */
export const DATA_SOURCE_REPOSITORIES = [
  UsersRepository,
  SessionsRepository,
  OAuthStatesRepository,
  DemoAccountsRepository,
  EtsyTokensRepository,
  DatabaseProbe,
  SyncRunsRepository,
  SyncCursorsRepository,
  FxRatesRepository,
  OrderRecordsRepository,
  MatchingInputsRepository,
  MatchRunsRepository,
  OrderViewsRepository,
  AnalyticsRepository,
  OrderDetailsRepository,
  OrderEditsService,
  OrderExportRepository,
  PayoutsRepository,
  ProfitSettingsRepository,
  UserDataRepository,
] as const;
