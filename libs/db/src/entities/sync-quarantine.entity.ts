import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Provider } from '@pod/contracts';
import { UserEntity } from './user.entity';

/**
 * A provider record that failed the schema: kept out of the order tables with the reason, and
 * removed once a later fetch of the same record maps cleanly.
 */
@Entity({ name: 'sync_quarantine' })
@Check('sync_quarantine_provider_check', `provider IN ('etsy', 'printify')`)
export class SyncQuarantineEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'sync_quarantine_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'sync_quarantine_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sync_quarantine_pkey' })
  provider: Provider;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'sync_quarantine_pkey' })
  shopId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sync_quarantine_pkey' })
  stream: string;

  /** The record's id, or `#<position>` on its page when its id could not be read. */
  @PrimaryColumn({ name: 'record_key', type: 'text', primaryKeyConstraintName: 'sync_quarantine_pkey' })
  recordKey: string;

  @Column({ type: 'text' })
  field: string;

  @Column({ type: 'text' })
  reason: string;

  /** The start of the record as received (capped), for the operator. */
  @Column({ name: 'payload_excerpt', type: 'text', nullable: true })
  payloadExcerpt: string | null;

  @Column({ name: 'times_seen', type: 'int', default: 1 })
  timesSeen: number;

  @Column({ name: 'first_seen_at', type: 'timestamptz', default: () => 'now()' })
  firstSeenAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;
}
