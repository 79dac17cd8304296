import { stopOnSignals } from './run-service-main';

describe('stopOnSignals', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
    process.removeAllListeners('SIGINT');
  });

  it('names the process and where its stop is when the stop overruns the timeout, then exits 1', () => {
    jest.useFakeTimers();
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let stage = 'closing the application (requests and bus handlers in flight)';
    stopOnSignals(
      () => new Promise<void>(() => undefined),
      500,
      () => `quote-builder (${stage})`,
    );
    stage = 'closing NATS';
    process.emit('SIGINT', 'SIGINT'); // as Node emits a signal: its name as the argument
    jest.advanceTimersByTime(1_499);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(stderr).toHaveBeenCalledWith('quote-builder (closing NATS): shutdown did not finish within 500 ms after SIGINT; exiting\n');
    expect(exit).toHaveBeenCalledWith(1);
    process.removeAllListeners('SIGTERM');
  });
});
