/**
 * The life of a server process, for the `main.ts` of the control plane, the gateway, the
 * operator and the webhook: settings read or a clear exit 2, the server started or exit 1 with why, and on the
 * first SIGTERM / SIGINT an orderly stop, then exit 0 (1 when the stop failed). A second signal
 * during the stop is ignored, so a stop in progress is never cut short by a repeated Ctrl-C.
 */

/** What `read` returns; when it throws (a bad setting), `<name>: <message>` on stderr and exit 2. */
export function settingsOrExit<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}`);
    process.exit(2);
  }
}

/** The started server; when `starting` fails, `<name> failed to start: <message>` on stderr and exit 1. */
export function startedOrExit<T>(
  name: string,
  starting: Promise<T>,
  describe: (error: Error) => string = (error) => error.message,
): Promise<T> {
  return starting.catch((error: Error) => {
    console.error(`${name} failed to start: ${describe(error)}`);
    process.exit(1);
  });
}

/** On the first SIGTERM or SIGINT: `stop`, then exit 0, or 1 when it failed. */
export function stopOnSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop(signal).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

/** Whether process `pid` runs: signal 0 reaches it, or is refused (EPERM) because another user owns it. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
