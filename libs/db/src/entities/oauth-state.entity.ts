import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * One pending Etsy authorization. Only the SHA-256 of `state` is stored; the PKCE verifier is
 * encrypted. It belongs to the session that started it, lives 10 minutes and is consumed once.
 */
@Entity({ name: 'oauth_state' })
export class OAuthStateEntity {
  @PrimaryColumn({ name: 'state_hash', type: 'text' })
  stateHash: string;

  @Index('oauth_state_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'oauth_state_user_id_fkey' })
  user?: UserEntity;

  /** hashSessionId() of the session that started the flow. */
  @Column({ name: 'session_id_hash', type: 'text' })
  sessionIdHash: string;

  @Column({ name: 'code_verifier_enc', type: 'text', select: false })
  codeVerifierEnc: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt: Date | null;
}
