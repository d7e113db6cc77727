/**
 * Sends webhook deliveries and retries them on the provider's schedule. Timers are one-shot
 * (setTimeout, unref'd) and all of them, and every request in flight, end when the sandbox
 * closes. Every attempt lands in the delivery log (never a secret or a signature).
 */
export type WebhookProvider = 'printify' | 'etsy';

export type DeliveryOutcome =
  /** The receiver accepted it. */
  | 'delivered'
  /** Refused or unreachable; another attempt follows. */
  | 'failed'
  /** Refused on the last attempt: no more tries. */
  | 'gave-up'
  /** Refused on the last attempt and the subscription is blocked (Printify: 1 hour). */
  | 'blocked'
  /** Not sent: the subscription is blocked, changed or gone. */
  | 'dropped';

export interface DeliveryRecord {
  seq: number;
  at: string;
  provider: WebhookProvider;
  tenantId: string;
  subscriptionId: string;
  /** Printify topic or Etsy event type. */
  event: string;
  /** Printify envelope id, or Etsy webhook-id: the same on every attempt. */
  deliveryId: string;
  url: string | null;
  attempt: number;
  status: number | null;
  error: string | null;
  outcome: DeliveryOutcome;
}

export class DeliveryLog {
  private readonly entries: DeliveryRecord[] = [];
  private nextSeq = 1;

  constructor(private readonly capacity = 10_000) {}

  add(entry: Omit<DeliveryRecord, 'seq'>): DeliveryRecord {
    const full = { ...entry, seq: this.nextSeq++ };
    this.entries.push(full);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return full;
  }

  list(filter: { provider?: string; tenantId?: string; afterSeq?: number; limit?: number } = {}): DeliveryRecord[] {
    const out = this.entries.filter(
      (e) =>
        (filter.provider === undefined || e.provider === filter.provider) &&
        (filter.tenantId === undefined || e.tenantId === filter.tenantId) &&
        (filter.afterSeq === undefined || e.seq > filter.afterSeq),
    );
    return filter.limit !== undefined ? out.slice(-filter.limit) : out;
  }

  clear(): void {
    this.entries.length = 0;
  }
}

export interface OutgoingDelivery {
  provider: WebhookProvider;
  tenantId: string;
  subscriptionId: string;
  event: string;
  deliveryId: string;
  /** The raw body, sent byte for byte as signed. */
  body: string;
  /** Where to send this attempt, or null when the delivery must be dropped (subscription gone or blocked). */
  target: () => string | null;
  /** The headers of one attempt (Etsy signs each attempt with a fresh timestamp). */
  headers: (attempt: number) => Record<string, string>;
  /** Seconds to wait before each retry, after the preceding attempt failed (unscaled). */
  retryDelaysSeconds: readonly number[];
  /** Whether a status counts as accepted (Printify: exactly 200; Etsy: any 2xx). */
  accepted: (status: number) => boolean;
  /** Called when the last attempt failed; returns true when that blocked the subscription. */
  onGiveUp?: () => boolean;
}

/** One attempt's own bound: a receiver that hangs counts as a failure. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export class WebhookSender {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly log: DeliveryLog,
    /** Multiplies every retry delay (and the blocks the caller applies): tests shrink it. */
    private readonly timeScale: () => number,
    private readonly nowMs: () => number,
  ) {}

  send(delivery: OutgoingDelivery): void {
    this.schedule(delivery, 1, 0);
  }

  /** Stops every pending retry and aborts requests in flight (the sandbox is closing). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }

  private schedule(delivery: OutgoingDelivery, attempt: number, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery, attempt);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(delivery: OutgoingDelivery, attempt: number): Promise<void> {
    const url = delivery.target();
    const record = (status: number | null, error: string | null, outcome: DeliveryOutcome) =>
      this.log.add({
        at: new Date(this.nowMs()).toISOString(),
        provider: delivery.provider,
        tenantId: delivery.tenantId,
        subscriptionId: delivery.subscriptionId,
        event: delivery.event,
        deliveryId: delivery.deliveryId,
        url,
        attempt,
        status,
        error,
        outcome,
      });
    if (url === null) {
      record(null, null, 'dropped');
      return;
    }
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    timeout.unref();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: delivery.headers(attempt),
        body: delivery.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      status = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (failure) {
      error = controller.signal.aborted
        ? this.closed
          ? 'sandbox closing'
          : `no answer within ${ATTEMPT_TIMEOUT_MS} ms`
        : describe(failure);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
    if (this.closed) return;
    if (status !== null && delivery.accepted(status)) {
      record(status, null, 'delivered');
      return;
    }
    const delay = delivery.retryDelaysSeconds[attempt - 1];
    if (delay === undefined) {
      const blocked = delivery.onGiveUp?.() ?? false;
      record(status, error, blocked ? 'blocked' : 'gave-up');
      return;
    }
    record(status, error, 'failed');
    this.schedule(delivery, attempt + 1, Math.round(delay * 1000 * this.timeScale()));
  }
}

function describe(failure: unknown): string {
  const cause = (failure as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof cause === 'string') return cause;
  return failure instanceof Error ? failure.name : 'request failed';
}
