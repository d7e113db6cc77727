import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';

@Entity({ name: 'app_user' })
@Index('app_user_email_key', ['email'], { unique: true })
@Index('app_user_demo_expires_idx', ['demoExpiresAt'], { where: 'is_demo' })
@Check('app_user_display_currency_check', `display_currency IN ('USD', 'EUR', 'GBP')`)
@Check('app_user_demo_expiry', 'NOT is_demo OR demo_expires_at IS NOT NULL')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased and trimmed; unique. */
  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName: string;

  @Column({ name: 'display_currency', type: 'text', default: 'USD' })
  displayCurrency: DisplayCurrencyCode;

  /** A "Try the demo" account: its connections point at the sandbox, and it is removed at demoExpiresAt. */
  @Column({ name: 'is_demo', type: 'boolean', default: false })
  isDemo: boolean;

  @Column({ name: 'demo_expires_at', type: 'timestamptz', nullable: true })
  demoExpiresAt: Date | null;

  /** The sandbox seller (tenant) that plays this user's Etsy shop and Printify account in demo mode. */
  @Column({ name: 'sandbox_tenant_id', type: 'text', nullable: true })
  sandboxTenantId: string | null;

  /** Bumped by Delete All Data; a job's writes check it is still the one the job started with (ADR 0036). */
  @Column({ name: 'data_epoch', type: 'integer', default: 0 })
  dataEpoch: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
