import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { MatchRunStatus, MatchRunTrigger } from '@pod/contracts';
import { UserEntity } from './user.entity';

/** One matcher run for one user: what the web app polls after "Match Orders". The job id is this id. */
@Entity({ name: 'match_run' })
@Check('match_run_status_check', `status IN ('queued', 'running', 'succeeded', 'failed')`)
@Check('match_run_trigger_check', `trigger IN ('user', 'sync', 'operator')`)
@Index('match_run_one_queued_idx', ['userId'], { unique: true, where: `status = 'queued'` })
@Index('match_run_user_latest_idx', ['userId', 'createdAt'])
export class MatchRunEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'match_run_pkey' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'match_run_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'text', default: 'queued' })
  status: MatchRunStatus;

  @Column({ type: 'text' })
  trigger: MatchRunTrigger;

  @Column({ name: 'records_added', type: 'int', default: 0 })
  recordsAdded: number;

  @Column({ name: 'records_changed', type: 'int', default: 0 })
  recordsChanged: number;

  @Column({ name: 'records_removed', type: 'int', default: 0 })
  recordsRemoved: number;

  /** A sentence for the user; never internals. */
  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
