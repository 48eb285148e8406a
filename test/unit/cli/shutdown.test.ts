import { EventEmitter } from 'node:events';
import { onShutdown, type SignalSource } from '../../../src/cli/shutdown';

/** A fake process: signals are emitted by hand, exits are recorded instead of ending jest. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    source: emitter as unknown as SignalSource,
    exits,
    exit: (code: number) => void exits.push(code),
    send: (signal: NodeJS.Signals) => emitter.emit(signal, signal),
    listeners: () => emitter.listenerCount('SIGTERM') + emitter.listenerCount('SIGINT'),
  };
}

function fakeLogger() {
  const lines: { level: string; obj?: object; msg: string }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
    warn: (msg: string) => void lines.push({ level: 'warn', msg }),
  };
}

/** A graceful stop that ends when the test says so. */
function pendingStop() {
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const calls: NodeJS.Signals[] = [];
  const stop = (signal: NodeJS.Signals) => {
    calls.push(signal);
    return new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { stop, calls, finish: () => finish(), fail: (err: Error) => fail(err) };
}

describe('one way to stop (onShutdown)', () => {
  it('first signal: says so once, runs the graceful stop, resolves with the signal and removes its handlers', async () => {
    const p = fakeProcess();
    const log = fakeLogger();
    const g = pendingStop();
    const sd = onShutdown({
      stop: g.stop,
      notice: { logger: log, first: 'finishing in-flight jobs, then exiting' },
      source: p.source,
      exit: p.exit,
    });
    expect(p.listeners()).toBe(2);
    expect(sd.signalled).toBe(false);

    p.send('SIGTERM');
    expect(sd.signalled).toBe(true);
    expect(g.calls).toEqual(['SIGTERM']);
    expect(log.lines).toEqual([
      { level: 'info', obj: { signal: 'SIGTERM' }, msg: 'finishing in-flight jobs, then exiting' },
    ]);
    expect(p.listeners()).toBe(2); // still there while the stop runs: a second signal must be caught

    g.finish();
    await expect(sd.stopped).resolves.toBe('SIGTERM');
    expect(p.exits).toEqual([]); // the command returns its own code
    expect(p.listeners()).toBe(0);
  });

  it('second signal while stopping: exits at once with 130 and the warning, the stop is not started again', async () => {
    const p = fakeProcess();
    const log = fakeLogger();
    const g = pendingStop();
    onShutdown({
      stop: g.stop,
      notice: { logger: log, first: 'first', second: 'second signal: exiting now' },
      source: p.source,
      exit: p.exit,
    });

    p.send('SIGINT');
    p.send('SIGTERM');
    expect(p.exits).toEqual([130]);
    expect(g.calls).toEqual(['SIGINT']);
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([
      ['info', 'first'],
      ['warn', 'second signal: exiting now'],
    ]);
  });

  it('a second signal without a second message exits silently; the force code can be chosen', () => {
    const p = fakeProcess();
    const log = fakeLogger();
    onShutdown({
      stop: pendingStop().stop,
      notice: { logger: log, first: 'stopping the desk' },
      forceExitCode: 3,
      source: p.source,
      exit: p.exit,
    });
    p.send('SIGTERM');
    p.send('SIGTERM');
    expect(p.exits).toEqual([3]);
    expect(log.lines.map((l) => l.msg)).toEqual(['stopping the desk']);
  });

  it('with a stderr writer and stoppedExitCode (run): writes the text as is and exits 130 only after the stop is done', async () => {
    const p = fakeProcess();
    const written: string[] = [];
    const g = pendingStop();
    const sd = onShutdown({
      stop: g.stop,
      notice: {
        write: (t) => void written.push(t),
        first: '\nstopping: finishing in-flight items (Ctrl-C again to force)\n',
      },
      stoppedExitCode: 130,
      source: p.source,
      exit: p.exit,
    });
    p.send('SIGINT');
    expect(written).toEqual(['\nstopping: finishing in-flight items (Ctrl-C again to force)\n']);
    await Promise.resolve();
    expect(p.exits).toEqual([]);
    g.finish();
    await sd.stopped;
    expect(p.exits).toEqual([130]);
  });

  it('dispose before any signal removes the handlers; a later signal does nothing', () => {
    const p = fakeProcess();
    const g = pendingStop();
    const sd = onShutdown({
      stop: g.stop,
      notice: { write: () => undefined, first: 'x' },
      source: p.source,
      exit: p.exit,
    });
    sd.dispose();
    sd.dispose();
    expect(p.listeners()).toBe(0);
    p.send('SIGTERM');
    expect(g.calls).toEqual([]);
    expect(sd.signalled).toBe(false);
  });

  it('dispose after a signal keeps the handlers until the stop is done, so a second signal still forces the exit', () => {
    const p = fakeProcess();
    const sd = onShutdown({
      stop: pendingStop().stop,
      notice: { write: () => undefined, first: 'x' },
      source: p.source,
      exit: p.exit,
    });
    p.send('SIGTERM');
    sd.dispose(); // run's finally, reached while rt.close() is still finishing
    expect(p.listeners()).toBe(2);
    p.send('SIGTERM');
    expect(p.exits).toEqual([130]);
  });

  it('a failed stop rejects `stopped` with its error and removes the handlers', async () => {
    const p = fakeProcess();
    const g = pendingStop();
    const sd = onShutdown({
      stop: g.stop,
      notice: { write: () => undefined, first: 'x' },
      source: p.source,
      exit: p.exit,
    });
    p.send('SIGTERM');
    g.fail(new Error('redis gone'));
    await expect(sd.stopped).rejects.toThrow('redis gone');
    expect(p.listeners()).toBe(0);
    expect(p.exits).toEqual([]);
  });

  it('installs on the real process by default and removes its own handlers only', () => {
    const before = process.listenerCount('SIGTERM');
    const sd = onShutdown({ stop: async () => undefined, notice: { write: () => undefined, first: 'x' } });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    expect(process.listenerCount('SIGINT')).toBeGreaterThanOrEqual(1);
    sd.dispose();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
