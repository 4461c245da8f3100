/**
 * The container engine a release stack runs on: podman with podman-compose, or Docker with its
 * compose plugin (a running daemon), whichever is found first. Commands are run, never a shell.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { cliErrors } from "../errors.ts";

const run = promisify(execFile);

export interface ComposeEngine {
  /** `podman-compose` or `docker compose`. */
  name: string;
  /** Runs a compose command (`up -d gateway`, `down`, …) with extra environment; its output. */
  compose(file: string, args: string[], env?: Record<string, string>): Promise<string>;
  imageExists(image: string): Promise<boolean>;
  /** The last lines a service's container printed. */
  logs(file: string, service: string): Promise<string>;
  /** Whether a service's container is running (both tools label containers the same way). */
  running(service: string): Promise<boolean>;
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args, { timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

function engine(name: string, composeCommand: string[], cli: string, project: string): ComposeEngine {
  const [command, ...prefix] = composeCommand as [string, ...string[]];
  const compose = async (file: string, args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await run(command, [...prefix, "-p", project, "-f", file, ...args], {
        env: { ...process.env, ...env },
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      return `${stdout}${stderr}`;
    } catch (error) {
      const failed = error as Error & { stdout?: string; stderr?: string };
      const output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      throw cliErrors.composeFailed(`${name} ${args.join(" ")}`, output || failed.message);
    }
  };
  return {
    name,
    compose,
    imageExists: (image) =>
      cli === "podman"
        ? succeeds("podman", ["image", "exists", image])
        : succeeds("docker", ["image", "inspect", image]),
    logs: (file, service) => compose(file, ["logs", "--tail", "20", service]).catch((error: Error) => error.message),
    async running(service) {
      const filters = [`label=com.docker.compose.project=${project}`, `label=com.docker.compose.service=${service}`];
      const { stdout } = await run(cli, ["ps", "-q", ...filters.flatMap((filter) => ["--filter", filter])], {
        timeout: 20_000,
      });
      return stdout.trim() !== "";
    },
  };
}

/** podman + podman-compose, else Docker with compose; a clear error naming both when neither works. */
export async function findComposeEngine(project: string): Promise<ComposeEngine> {
  if ((await succeeds("podman", ["--version"])) && (await succeeds("podman-compose", ["--version"]))) {
    return engine("podman-compose", ["podman-compose"], "podman", project);
  }
  if ((await succeeds("docker", ["info"])) && (await succeeds("docker", ["compose", "version"]))) {
    return engine("docker compose", ["docker", "compose"], "docker", project);
  }
  throw cliErrors.noContainerEngine();
}
