import { CostKindDayEntity } from './cost-kind-day.entity';
import { DashboardDayEntity } from './dashboard-day.entity';
import { EtsyLedgerEntryEntity } from './etsy-ledger-entry.entity';
import { EtsyPaymentEntity } from './etsy-payment.entity';
import { EtsyReceiptLineEntity } from './etsy-receipt-line.entity';
import { EtsyReceiptEntity } from './etsy-receipt.entity';
import { MatchRunEntity } from './match-run.entity';
import { OAuthStateEntity } from './oauth-state.entity';
import { OrderCountDayEntity } from './order-count-day.entity';
import { OrderProfitEntity } from './order-profit.entity';
import { OrderRecordEntity } from './order-record.entity';
import { OrderRecordPrintifyOrderEntity } from './order-record-printify-order.entity';
import { PrintifyOrderLineEntity } from './printify-order-line.entity';
import { PrintifyOrderEntity } from './printify-order.entity';
import { ProductDayEntity } from './product-day.entity';
import { ProviderConnectionEntity } from './provider-connection.entity';
import { SessionEntity } from './session.entity';
import { ShopCostDayEntity } from './shop-cost-day.entity';
import { SyncCursorEntity } from './sync-cursor.entity';
import { SyncQuarantineEntity } from './sync-quarantine.entity';
import { SyncRunEntity } from './sync-run.entity';
import { UserEntity } from './user.entity';

export {
  CostKindDayEntity,
  DashboardDayEntity,
  EtsyLedgerEntryEntity,
  EtsyPaymentEntity,
  EtsyReceiptEntity,
  EtsyReceiptLineEntity,
  MatchRunEntity,
  OAuthStateEntity,
  OrderCountDayEntity,
  OrderProfitEntity,
  OrderRecordEntity,
  OrderRecordPrintifyOrderEntity,
  PrintifyOrderEntity,
  PrintifyOrderLineEntity,
  ProductDayEntity,
  ProviderConnectionEntity,
  SessionEntity,
  ShopCostDayEntity,
  SyncCursorEntity,
  SyncQuarantineEntity,
  SyncRunEntity,
  UserEntity,
};
/**
 * The tables TypeORM maps. fx_rate has none: only raw SQL reads and writes it, and it is no
 * tenant table, so its migration is its one description. The other tables only raw SQL reads keep
 * their entity: the tenant-scope test reads the tenant tables from the entities, and the synced
 * tables' upserts are generated from theirs (docs/adr/0028-code-layout.md).
 */
export const ALL_ENTITIES = [
  UserEntity,
  SessionEntity,
  ProviderConnectionEntity,
  OAuthStateEntity,
  OrderCountDayEntity,
  SyncRunEntity,
  SyncCursorEntity,
  EtsyReceiptEntity,
  EtsyReceiptLineEntity,
  EtsyPaymentEntity,
  EtsyLedgerEntryEntity,
  PrintifyOrderEntity,
  PrintifyOrderLineEntity,
  SyncQuarantineEntity,
  OrderRecordEntity,
  MatchRunEntity,
  OrderProfitEntity,
  DashboardDayEntity,
  CostKindDayEntity,
  ProductDayEntity,
  ShopCostDayEntity,
];
