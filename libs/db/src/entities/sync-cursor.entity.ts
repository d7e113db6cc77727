import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Provider, SyncStreamName } from '@pod/contracts';
import { UserEntity } from './user.entity';

/**
 * Where a stream's next page starts, per user, shop and stream. It moves in the same
 * transaction as the page's rows, under compare-and-set on `version`.
 */
@Entity({ name: 'sync_cursor' })
@Check('sync_cursor_provider_check', `provider IN ('etsy', 'printify')`)
export class SyncCursorEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'sync_cursor_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'sync_cursor_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sync_cursor_pkey' })
  provider: Provider;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'sync_cursor_pkey' })
  shopId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sync_cursor_pkey' })
  stream: SyncStreamName;

  /** The stream's own shape (see each stream's cursor type); JSON so streams can differ. */
  @Column({ type: 'jsonb' })
  position: unknown;

  @Column({ type: 'int', default: 1 })
  version: number;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
