import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { FetchLike } from '@pod/integrations';
import { beforeEachStatement, isCountedRedisCommand, isPgWrite, type FaultOperationKind } from '@pod/testing';

/** The error the in-process sweep throws at its failure point (a crash the code did not expect). */
export class InjectedFault extends Error {
  constructor(
    readonly kind: FaultOperationKind,
    readonly at: number,
  ) {
    super(`injected failure at ${kind} #${at}`);
    this.name = 'InjectedFault';
  }
}

/**
 * Counts a sync's PostgreSQL writes, Redis commands and provider calls (by the rules of the
 * worker's test kill hook, libs/testing/src/fault-points.ts) and throws InjectedFault at the
 * k-th operation of each armed kind, once. Only the instruments below count: the test's own
 * reads, BullMQ's connections and the sandbox are not part of it.
 */
export class OperationFaults {
  readonly counts: Record<FaultOperationKind, number> = { 'pg-write': 0, redis: 0, http: 0 };
  private armed: Partial<Record<FaultOperationKind, number>> = {};
  private counting = false;
  /** The faults thrown since `arm`. */
  readonly fired: InjectedFault[] = [];

  /** Starts counting from 0; the k-th operation of each kind named in `targets` fails, once. */
  arm(targets: Partial<Record<FaultOperationKind, number>>): void {
    this.counts['pg-write'] = 0;
    this.counts.redis = 0;
    this.counts.http = 0;
    this.armed = { ...targets };
    this.fired.length = 0;
    this.counting = true;
  }

  disarm(): void {
    this.counting = false;
    this.armed = {};
  }

  /** Counts one operation; throws when it is an armed one. */
  pass(kind: FaultOperationKind): void {
    if (!this.counting) return;
    this.counts[kind] += 1;
    if (this.counts[kind] === this.armed[kind]) {
      const fault = new InjectedFault(kind, this.counts[kind]);
      this.fired.push(fault);
      throw fault;
    }
  }

  /** Every query runner of `dataSource` counts its writes (COMMIT included) before sending them. */
  instrumentDataSource(dataSource: DataSource): void {
    beforeEachStatement(dataSource, (sql) => {
      if (isPgWrite(sql)) this.pass('pg-write');
    });
  }

  /** A Redis client whose counted commands pass through here (the failing one rejects unsent). */
  redis(url = 'redis://127.0.0.1:6379'): Redis {
    const client = new Redis(url, { maxRetriesPerRequest: 2 });
    const send = client.sendCommand.bind(client);
    client.sendCommand = (command, stream) => {
      try {
        if (isCountedRedisCommand(command.name)) this.pass('redis');
      } catch (error) {
        command.reject(error as Error);
        return command.promise;
      }
      return send(command, stream);
    };
    return client;
  }

  /** The provider clients' fetch: the failing call is answered, then reported failed (its response unread). */
  fetch(): FetchLike {
    return async (url, init) => {
      const response = await fetch(url, init);
      try {
        this.pass('http');
      } catch (error) {
        void response.body?.cancel().catch(() => undefined);
        throw error;
      }
      return response;
    };
  }
}
