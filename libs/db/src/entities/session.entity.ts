import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * A signed-in session. The JWT in the cookie carries the session's random id; only its
 * SHA-256 is stored, so a database leak does not hand out live sessions.
 */
@Entity({ name: 'user_session' })
export class SessionEntity {
  @PrimaryColumn({ name: 'id_hash', type: 'text' })
  idHash: string;

  @Index('user_session_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_session_user_id_fkey' })
  user?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;

  /** Absolute end; the idle limit is checked against lastSeenAt. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
