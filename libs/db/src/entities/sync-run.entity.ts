import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Provider, SyncErrorCode, SyncMode, SyncRunStatus, SyncStreamName, SyncTrigger } from '@pod/contracts';
import { UserEntity } from './user.entity';

/** One sync of one provider for one user: what the UI polls. The BullMQ job id is this id. */
@Entity({ name: 'sync_run' })
@Check('sync_run_provider_check', `provider IN ('etsy', 'printify')`)
@Check(
  'sync_run_status_check',
  `status IN ('queued', 'running', 'waiting_for_quota', 'succeeded', 'failed', 'interrupted')`,
)
@Check('sync_run_trigger_check', `trigger IN ('user', 'schedule', 'nightly', 'connect', 'demo', 'operator')`)
@Check('sync_run_mode_check', `mode IN ('incremental', 'nightly')`)
@Index('sync_run_one_active_idx', ['userId', 'provider'], {
  unique: true,
  where: `status IN ('queued', 'running', 'waiting_for_quota')`,
})
@Index('sync_run_user_latest_idx', ['userId', 'provider', 'createdAt'])
@Index('sync_run_active_idx', ['updatedAt'], { where: `status IN ('queued', 'running', 'waiting_for_quota')` })
export class SyncRunEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'sync_run_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'text' })
  provider: Provider;

  @Column({ name: 'shop_id', type: 'text' })
  shopId: string;

  @Column({ type: 'text', default: 'queued' })
  status: SyncRunStatus;

  @Column({ type: 'text' })
  trigger: SyncTrigger;

  @Column({ type: 'text', default: 'incremental' })
  mode: SyncMode;

  @Column({ type: 'text', nullable: true })
  stream: SyncStreamName | null;

  @Column({ name: 'pages_done', type: 'int', default: 0 })
  pagesDone: number;

  @Column({ name: 'orders_added', type: 'int', default: 0 })
  ordersAdded: number;

  @Column({ name: 'orders_changed', type: 'int', default: 0 })
  ordersChanged: number;

  @Column({ name: 'requests_made', type: 'int', default: 0 })
  requestsMade: number;

  /** From the provider's totals where it reports them: the denominator of the progress bar. */
  @Column({ name: 'expected_pages', type: 'int', nullable: true })
  expectedPages: number | null;

  @Column({ name: 'resume_at', type: 'timestamptz', nullable: true })
  resumeAt: Date | null;

  @Column({ name: 'error_code', type: 'text', nullable: true })
  errorCode: SyncErrorCode | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  /** Compare-and-set: a late writer (a stalled worker resumed) finds it moved and stops. */
  @Column({ type: 'int', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
