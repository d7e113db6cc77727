import { randomBytes } from 'node:crypto';
import type { OAuthParams } from './consent-page';

export interface PendingAuthorization {
  /** The seller the consent page was shown to: the only one its decision can grant for. */
  tenantId: string;
  params: OAuthParams;
  expiresAtMs: number;
}

/** As long as the product keeps its own state (10 minutes), with room for a slow reader. */
const LIFETIME_MS = 30 * 60_000;
/** A bound on memory: beyond it the oldest pending screens are forgotten. */
const MAX_PENDING = 20_000;

/**
 * The consent screens the sandbox has shown and not yet had an answer to, kept on the server
 * (as Etsy keeps its own session), so a decision is bound to the seller the screen was shown
 * to: the form carries only an unguessable id and cannot name another seller.
 */
export class AuthorizationRequests {
  private readonly pending = new Map<string, PendingAuthorization>();

  constructor(private readonly now: () => number) {}

  open(tenantId: string, params: OAuthParams): string {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    this.pending.set(id, { tenantId, params: { ...params }, expiresAtMs: this.now() + LIFETIME_MS });
    return id;
  }

  /** The live screen with this id, or undefined; it stays until `close` (a wrong form does not spend it). */
  find(id: string | undefined): PendingAuthorization | undefined {
    const found = id ? this.pending.get(id) : undefined;
    return found && found.expiresAtMs > this.now() ? found : undefined;
  }

  close(id: string): void {
    this.pending.delete(id);
  }

  dropTenant(tenantId: string): void {
    for (const [id, request] of this.pending) if (request.tenantId === tenantId) this.pending.delete(id);
  }

  get size(): number {
    return this.pending.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, request] of this.pending) if (request.expiresAtMs <= now) this.pending.delete(id);
    // Map order is insertion order: the first keys are the oldest.
    for (const id of this.pending.keys()) {
      if (this.pending.size < MAX_PENDING) break;
      this.pending.delete(id);
    }
  }
}
