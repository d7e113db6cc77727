/** Why a request got no turn: the user's line was full, or it waited past the bound. */
export type NoTurn = 'queue_full' | 'waited_too_long';

export class NoTurnError extends Error {
  constructor(readonly reason: NoTurn) {
    super(`no turn: ${reason}`);
  }
}

/**
 * How long a signed-in request waits for its user's turn: well past a normal page's burst of
 * reads (tens of ms each) and an order edit's lock wait (1 s), short of a client giving up.
 */
export const USER_TURN_MAX_WAIT_MS = 10_000;

export interface UserConcurrencyLimits {
  /** Requests of one user running at once. */
  perUser: number;
  /** Requests of one user waiting for a turn; one more is refused at once. */
  queue: number;
  /** How long a request may wait for its turn before it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

interface UserLine {
  running: number;
  waiting: Waiter[];
}

/**
 * A semaphore per user, in one gateway process: at most `perUser` of a user's requests run at
 * once, up to `queue` more wait first come first served (holding no database connection), and
 * the rest are refused, so one user's flood takes a bounded share of the pool (issue 16).
 * Lines are dropped when empty: the map holds only users with requests in flight.
 */
export class UserConcurrencyLimiter {
  private readonly lines = new Map<string, UserLine>();

  constructor(private readonly limits: UserConcurrencyLimits) {
    if (!(limits.perUser >= 1 && limits.queue >= 0 && limits.maxWaitMs > 0))
      throw new Error('UserConcurrencyLimiter: bad limits');
  }

  /** Resolves with the release of a turn (call it exactly once), or rejects with NoTurnError. */
  acquire(userId: string): Promise<() => void> {
    const line = this.lines.get(userId) ?? { running: 0, waiting: [] };
    this.lines.set(userId, line);
    if (line.running < this.limits.perUser) {
      line.running += 1;
      return Promise.resolve(this.releaseOf(userId, line));
    }
    if (line.waiting.length >= this.limits.queue) return Promise.reject(new NoTurnError('queue_full'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // The turn passes from the releasing request straight to this one: `running` is unchanged.
        admit: () => {
          clearTimeout(waiter.timer);
          resolve(this.releaseOf(userId, line));
        },
        timer: setTimeout(() => {
          line.waiting.splice(line.waiting.indexOf(waiter), 1);
          this.dropIfIdle(userId, line);
          reject(new NoTurnError('waited_too_long'));
        }, this.limits.maxWaitMs),
      };
      line.waiting.push(waiter);
    });
  }

  /** Requests of the user running and waiting (for tests and metrics). */
  inFlight(userId: string): { running: number; waiting: number } {
    const line = this.lines.get(userId);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  private releaseOf(userId: string, line: UserLine): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = line.waiting.shift();
      if (next) return next.admit();
      line.running -= 1;
      this.dropIfIdle(userId, line);
    };
  }

  private dropIfIdle(userId: string, line: UserLine): void {
    if (line.running === 0 && line.waiting.length === 0 && this.lines.get(userId) === line) this.lines.delete(userId);
  }
}
