/**
 * How a long-running command stops (worker, serve, run, watch, scheduler): the first SIGTERM or
 * SIGINT finishes in-flight work (the command's graceful stop), a second one exits at once with
 * `forceExitCode` (130) without waiting. Written once here so that every command stops the same way.
 */

/** What the handlers are installed on: `process`, or a fake emitter in the unit test. */
export interface SignalSource {
  on(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

/** Where the stop is announced: the command's logger (JSON lines) or a plain stderr writer. */
export type ShutdownNotice =
  | {
      logger: { info(obj: object, msg: string): void; warn(msg: string): void };
      /** Logged at info with `{ signal }` on the first signal. */
      first: string;
      /** Logged at warn on the second signal, just before exiting; nothing when absent. */
      second?: string;
    }
  | {
      write: (text: string) => void;
      /** Written as is on the first signal. */
      first: string;
      /** Written as is on the second signal; nothing when absent. */
      second?: string;
    };

export interface ShutdownOptions {
  /** The graceful stop: finish in-flight work, close servers and connections. */
  stop: (signal: NodeJS.Signals) => Promise<void>;
  notice: ShutdownNotice;
  /** Exit code of a second signal (default 130), without waiting for the graceful stop. */
  forceExitCode?: number;
  /**
   * Exit with this code once the graceful stop is done (`run`: 130, its work was interrupted).
   * Without it the process is not exited: `stopped` resolves and the command returns its code.
   */
  stoppedExitCode?: number;
  signals?: readonly NodeJS.Signals[];
  source?: SignalSource;
  exit?: (code: number) => void;
}

export interface Shutdown {
  /**
   * Resolves with the first signal once the graceful stop is done; rejects if the stop failed
   * (the command awaiting it then fails like any other: message, exit 1).
   */
  readonly stopped: Promise<NodeJS.Signals>;
  /** Whether a signal has come (the graceful stop is running or done). */
  readonly signalled: boolean;
  /**
   * Removes the handlers when the command ends by itself. Once a signal has come they stay until
   * the graceful stop is done, so a second signal still exits at once.
   */
  dispose(): void;
}

/** Installs the SIGTERM/SIGINT handlers once; they are removed by `dispose()` or after the graceful stop. */
export function onShutdown(opts: ShutdownOptions): Shutdown {
  const source = opts.source ?? process;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const signals = opts.signals ?? (['SIGTERM', 'SIGINT'] as const);
  const forceExitCode = opts.forceExitCode ?? 130;
  let count = 0;
  let installed = true;
  let resolveStopped!: (signal: NodeJS.Signals) => void;
  let rejectStopped!: (err: unknown) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve, reject) => {
    resolveStopped = resolve;
    rejectStopped = reject;
  });
  // Deliberately no catch here: a failed stop nobody awaits (`run`, which exits by itself) stays an
  // unhandled rejection, so Node prints it and exits 1, as it did before this module.

  const remove = () => {
    if (!installed) return;
    installed = false;
    for (const s of signals) source.off(s, handler);
  };

  const say = (which: 'first' | 'second', signal: NodeJS.Signals) => {
    const n = opts.notice;
    const text = n[which];
    if (text === undefined) return;
    if ('logger' in n) {
      if (which === 'first') n.logger.info({ signal }, text);
      else n.logger.warn(text);
    } else n.write(text);
  };

  function handler(signal: NodeJS.Signals): void {
    count++;
    if (count > 1) {
      say('second', signal);
      exit(forceExitCode);
      return;
    }
    say('first', signal);
    let stopping: Promise<void>;
    try {
      stopping = Promise.resolve(opts.stop(signal));
    } catch (err) {
      stopping = Promise.reject(err);
    }
    stopping.then(
      () => {
        remove();
        if (opts.stoppedExitCode !== undefined) exit(opts.stoppedExitCode);
        resolveStopped(signal);
      },
      (err: unknown) => {
        remove();
        rejectStopped(err);
      },
    );
  }

  for (const s of signals) source.on(s, handler);

  return {
    stopped,
    get signalled() {
      return count > 0;
    },
    dispose() {
      if (count === 0) remove();
    },
  };
}

/**
 * A long-running command's last step (serve, watch, scheduler): wait for a signal, then stop what
 * the command started (`stopFirst`), close its runtime, and return exit code 0.
 */
export async function serveUntilSignal(
  rt: { logger: { info(obj: object, msg: string): void; warn(msg: string): void }; close(): Promise<void> },
  stopFirst: () => Promise<unknown>,
  notice: string,
): Promise<0> {
  await onShutdown({
    stop: async () => {
      await stopFirst();
      await rt.close();
    },
    notice: { logger: rt.logger, first: notice },
  }).stopped;
  return 0;
}
