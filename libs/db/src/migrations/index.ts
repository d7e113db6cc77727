import { Accounts1763800000000 } from './1763800000000-accounts';
import { ProviderConnections1763900000000 } from './1763900000000-provider-connections';
import { DemoAccounts1764000000000 } from './1764000000000-demo-accounts';
import { EtsyRefreshLease1764100000000 } from './1764100000000-etsy-refresh-lease';
import { SyncRuns1764200000000 } from './1764200000000-sync-runs';
import { SyncedOrders1764300000000 } from './1764300000000-synced-orders';
import { PrintifyWebhooks1764400000000 } from './1764400000000-printify-webhooks';
import { FxRates1764500000000 } from './1764500000000-fx-rates';
import { OrderRecords1764600000000 } from './1764600000000-order-records';
import { OrderProfits1764700000000 } from './1764700000000-order-profits';
import { ProvisionalFigures1764800000000 } from './1764800000000-provisional-figures';
import { TenantScope1764900000000 } from './1764900000000-tenant-scope';
import { OrderSearchUnindexed1765000000000 } from './1765000000000-order-search-unindexed';
import { DashboardRollups1765300000000 } from './1765300000000-dashboard-rollups';
import { RlsEveryTable1765400000000 } from './1765400000000-rls-every-table';
import { OrderSearchAndCounts1765520000000 } from './1765520000000-order-search-and-counts';
import { SeveralPrintifyOrders1765600000000 } from './1765600000000-several-printify-orders';
import { FeesFromTheirSource1765610000000 } from './1765610000000-fees-from-their-source';
import { ShopCostsAndPayouts1765620000000 } from './1765620000000-shop-costs-and-payouts';
import { PayoutWindows1765640000000 } from './1765640000000-payout-windows';
import { PendingPrintifyCost1765700300000 } from './1765700300000-pending-printify-cost';
import { OrderListSorts1765700500000 } from './1765700500000-order-list-sorts';
import { PaymentsInShopCurrency1765700600000 } from './1765700600000-payments-in-shop-currency';
import { LedgerReferenceTypesLowerCase1765700600001 } from './1765700600001-ledger-reference-types-lower-case';
import { MarginSortExact1765700700000 } from './1765700700000-margin-sort-exact';
import { UserDataEpoch1765701000000 } from './1765701000000-user-data-epoch';
import { AnalyticsRollups1765701300000 } from './1765701300000-analytics-rollups';
import { OrderRecordDatedIndex1765701400000 } from './1765701400000-order-record-dated-index';

/** Every migration, in order. Listed explicitly so ts and built js resolve the same set. */
export const ALL_MIGRATIONS = [
  Accounts1763800000000,
  ProviderConnections1763900000000,
  DemoAccounts1764000000000,
  EtsyRefreshLease1764100000000,
  SyncRuns1764200000000,
  SyncedOrders1764300000000,
  PrintifyWebhooks1764400000000,
  FxRates1764500000000,
  OrderRecords1764600000000,
  OrderProfits1764700000000,
  ProvisionalFigures1764800000000,
  TenantScope1764900000000,
  OrderSearchUnindexed1765000000000,
  DashboardRollups1765300000000,
  RlsEveryTable1765400000000,
  OrderSearchAndCounts1765520000000,
  SeveralPrintifyOrders1765600000000,
  FeesFromTheirSource1765610000000,
  ShopCostsAndPayouts1765620000000,
  PayoutWindows1765640000000,
  PendingPrintifyCost1765700300000,
  OrderListSorts1765700500000,
  PaymentsInShopCurrency1765700600000,
  LedgerReferenceTypesLowerCase1765700600001,
  MarginSortExact1765700700000,
  UserDataEpoch1765701000000,
  AnalyticsRollups1765701300000,
  OrderRecordDatedIndex1765701400000,
];
