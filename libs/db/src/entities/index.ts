import { DashboardDayEntity } from './dashboard-day.entity';
import { EtsyLedgerEntryEntity } from './etsy-ledger-entry.entity';
import { EtsyPaymentEntity } from './etsy-payment.entity';
import { EtsyReceiptLineEntity } from './etsy-receipt-line.entity';
import { EtsyReceiptEntity } from './etsy-receipt.entity';
import { MatchRunEntity } from './match-run.entity';
import { FxRateEntity } from './fx-rate.entity';
import { OAuthStateEntity } from './oauth-state.entity';
import { OrderCountDayEntity } from './order-count-day.entity';
import { OrderProfitEntity } from './order-profit.entity';
import { OrderRecordEntity } from './order-record.entity';
import { OrderRecordPrintifyOrderEntity } from './order-record-printify-order.entity';
import { PrintifyOrderLineEntity } from './printify-order-line.entity';
import { PrintifyOrderEntity } from './printify-order.entity';
import { ProviderConnectionEntity } from './provider-connection.entity';
import { SessionEntity } from './session.entity';
import { SyncCursorEntity } from './sync-cursor.entity';
import { SyncQuarantineEntity } from './sync-quarantine.entity';
import { SyncRunEntity } from './sync-run.entity';
import { UserEntity } from './user.entity';

export {
  DashboardDayEntity,
  EtsyLedgerEntryEntity,
  EtsyPaymentEntity,
  EtsyReceiptEntity,
  EtsyReceiptLineEntity,
  MatchRunEntity,
  FxRateEntity,
  OAuthStateEntity,
  OrderCountDayEntity,
  OrderProfitEntity,
  OrderRecordEntity,
  OrderRecordPrintifyOrderEntity,
  PrintifyOrderEntity,
  PrintifyOrderLineEntity,
  ProviderConnectionEntity,
  SessionEntity,
  SyncCursorEntity,
  SyncQuarantineEntity,
  SyncRunEntity,
  UserEntity,
};
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
  FxRateEntity,
  OrderProfitEntity,
  DashboardDayEntity,
];
