/** Runs hack/cluster/teardown.sh, the one way a cluster run is stopped and removed. */
import { execFile, spawnSync } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const TEARDOWN_SCRIPT = join(import.meta.dirname, "..", "teardown.sh");

export async function teardown(dir: string): Promise<void> {
  try {
    await run("bash", [TEARDOWN_SCRIPT, dir], { timeout: 120_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`hack/cluster/teardown.sh ${dir} failed: ${stderr.trim()}`);
  }
}

/** For the synchronous 'exit' hook. */
export function teardownSync(dir: string): void {
  spawnSync("bash", [TEARDOWN_SCRIPT, dir], { stdio: "ignore", timeout: 120_000 });
}
