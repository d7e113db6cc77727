import type { Logger } from 'pino';

export interface HardStop {
  /** Called once Nest's shutdown hooks are listening; before that a signal exits at once. */
  hooksEnabled(): void;
}

/**
 * Arms a hard-stop timer on the first SIGTERM/SIGINT. Nest's shutdown hooks do the graceful
 * part (stop fetching, let the active job finish, close connections, exit 0); but BullMQ's
 * close() waits forever on a reconnecting connection once Redis is gone, so past the bound
 * (`timeoutMs`, the validated config's SHUTDOWN_TIMEOUT_MS) the process exits with code 1
 * ("not stopped cleanly": the job's lock simply expires and another replica takes it up).
 */
export function armHardStop(
  logger: Logger,
  timeoutMs: number,
  exit: (code: number) => never | void = (code) => process.exit(code),
  signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'],
): HardStop {
  let nestHooks = false;
  let armed = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (armed) return;
    armed = true;
    if (!nestHooks) {
      logger.info({ event: 'worker.stopped', signal }, 'stopped before start-up finished');
      exit(0);
      return;
    }
    logger.info({ event: 'worker.stopping', signal, timeoutMs }, 'stopping: no new jobs; finishing the active one');
    const timer = setTimeout(() => {
      logger.error({ event: 'worker.hard_stop', timeoutMs }, 'shutdown did not finish in time; exiting anyway');
      exit(1);
    }, timeoutMs);
    timer.unref();
  };
  for (const signal of signals) process.on(signal, onSignal);
  return { hooksEnabled: () => void (nestHooks = true) };
}

/** Unhandled rejections are logged (a stray promise must not kill a worker); an uncaught exception leaves state unknown, so it exits. */
export function guardProcess(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason, event: 'process.unhandled_rejection' }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error, event: 'process.uncaught_exception' }, 'uncaught exception; exiting');
    process.exit(1);
  });
}
