import type { Logger } from 'pino';
import { armHardStop } from './shutdown';

const logger = { info: jest.fn(), error: jest.fn() } as unknown as Logger;

// The bound itself (SHUTDOWN_TIMEOUT_MS) is validated with the rest of the config: see
// libs/config/src/app-config.spec.ts.

describe('the hard-stop timer', () => {
  // A signal nobody else listens to in the test process; emitting it calls only our listeners.
  const SIGNAL: NodeJS.Signals = 'SIGUSR2';
  afterEach(() => {
    process.removeAllListeners(SIGNAL);
    jest.useRealTimers();
  });

  it('exits 1 once the bound passes after a signal, if the graceful path has not exited', () => {
    jest.useFakeTimers();
    const exit = jest.fn();
    armHardStop(logger, 5_000, exit, [SIGNAL]).hooksEnabled();
    process.emit(SIGNAL, SIGNAL);
    process.emit(SIGNAL, SIGNAL); // a second signal does not re-arm or exit early
    jest.advanceTimersByTime(4_999);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits 0 at once when signalled before start-up finished (no job can be running)', () => {
    const exit = jest.fn();
    armHardStop(logger, 5_000, exit, [SIGNAL]);
    process.emit(SIGNAL, SIGNAL);
    expect(exit).toHaveBeenCalledWith(0);
  });
});
