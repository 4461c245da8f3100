/**
 * A task run on demand, never twice at once: asked for while it runs, it runs once more after.
 * Used by the loops woken by NOTIFY and by a timer (the change hub, the credential watch), where
 * any number of wake-ups during a run mean "look again", not "look N times".
 */
export function coalesced(task: () => Promise<void>, onError: (error: Error) => void): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return run;
}
