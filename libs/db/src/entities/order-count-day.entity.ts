import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { MatchStatus } from '@pod/domain';
import { UserEntity } from './user.entity';

/**
 * How many records one user has of one UTC day, archived or not, of one status and with which
 * sides (migration 1765520000000-order-search-and-counts): the Orders page's counts. Derived:
 * every writer of order_record recomputes the days it touched, in its transaction.
 */
@Entity({ name: 'order_count_day' })
@Check('order_count_day_n_check', `n > 0`)
export class OrderCountDayEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'order_count_day_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'order_count_day_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ type: 'boolean', primaryKeyConstraintName: 'order_count_day_pkey' })
  archived: boolean;

  /** The UTC day of the records' order_date ('YYYY-MM-DD'). */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'order_count_day_pkey' })
  day: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'order_count_day_pkey' })
  status: MatchStatus;

  /** Whether the records have an Etsy receipt. */
  @PrimaryColumn({ type: 'boolean', primaryKeyConstraintName: 'order_count_day_pkey' })
  etsy: boolean;

  /** Whether the records have a Printify order. */
  @PrimaryColumn({ type: 'boolean', primaryKeyConstraintName: 'order_count_day_pkey' })
  printify: boolean;

  @Column({ type: 'integer' })
  n: number;
}
