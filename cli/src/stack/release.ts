/**
 * `atrium run --release <version>`: the release's Compose stack (compose.ts) on podman or Docker
 * (engine.ts), from the images hack/images/build.sh builds. The control plane starts first; on the
 * first start the CLI chooses the admin password, shows it once and logs in with it, creates the
 * gateway's API token (kept 0600 in the stack folder), then starts the gateway with it. Data stays
 * in the Compose volumes across `atrium stop`.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import ora from "ora";
import type { ApiClient } from "../api.ts";
import type { CliIo } from "../context.ts";
import { cliErrors } from "../errors.ts";
import { type ComposePorts, composeFile, composeProject, releaseImage } from "./compose.ts";
import { type ComposeEngine, findComposeEngine } from "./engine.ts";
import { stackFiles } from "./paths.ts";
import { health, isAlive } from "./processes.ts";
import { adminApi, gatewayToken, type RunResult } from "./run.ts";
import { type ComposeState, readState, writeState } from "./state.ts";

export interface ReleaseOptions {
  release: string;
  ports: ComposePorts;
  /** Serve the web UI the control-plane image carries (`--ui`). */
  ui: boolean;
}

export interface ReleaseResult {
  controlPlane: string;
  gateway: string;
  engine: string;
  composeFile: string;
  /** The web UI's address, with `--ui`. */
  ui?: string;
  admin?: RunResult["admin"];
}

const READY_TIMEOUT_MS = 120_000;

export async function runRelease(options: ReleaseOptions, io: CliIo): Promise<ReleaseResult> {
  const files = stackFiles();
  const state = readState(files.state);
  if (state?.compose || state?.processes.some((p) => isAlive(p.pid))) {
    throw cliErrors.usage("Atrium is already running: `atrium status` shows it, `atrium stop` stops it");
  }
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  const project = composeProject(files.dir);
  const engine = await findComposeEngine(project);
  for (const component of ["control-plane", "gateway"] as const) {
    const image = releaseImage(component, options.release);
    if (!(await engine.imageExists(image))) throw cliErrors.imageMissing(image, options.release);
  }
  const file = files.compose;
  writeFileSync(file, composeFile(options.release, options.ports, project, options.ui), {
    mode: 0o600,
  });
  chmodSync(file, 0o600);

  const spinner = ora({ stream: io.stderr, isEnabled: Boolean(io.stderr.isTTY) });
  const controlPlaneUrl = `http://127.0.0.1:${options.ports.controlPlane}`;
  const gatewayUrl = `http://localhost:${options.ports.gateway}`;
  // No gateway token yet: this stack's control plane has not been set up by this CLI.
  const firstStart = !existsSync(files.composeGatewayToken);
  const admin = firstStart
    ? { organization: "default", username: "admin", password: randomBytes(15).toString("base64url") }
    : undefined;
  const env: Record<string, string> = admin ? { ATRIUM_ADMIN_PASSWORD: admin.password } : {};
  try {
    spinner.start(`Starting the control plane (${releaseImage("control-plane", options.release)}, ${engine.name})`);
    await engine.compose(file, ["up", "-d", "control-plane"], env);
    await waitHealthy(engine, file, "control-plane", controlPlaneUrl);
    spinner.succeed(`Control plane ready on ${controlPlaneUrl}`);

    let api: ApiClient | undefined;
    const token = await gatewayToken(async () => {
      api ??= await adminApi(controlPlaneUrl, admin, io);
      return api;
    }, files.composeGatewayToken);

    spinner.start(`Starting the gateway (${releaseImage("gateway", options.release)})`);
    await engine.compose(file, ["up", "-d", "--no-deps", "gateway"], {
      ...env,
      ATRIUM_CONTROL_PLANE_TOKEN: readFileSync(token, "utf8").trim(),
    });
    await waitHealthy(engine, file, "gateway", gatewayUrl);
    spinner.succeed(`Gateway ready on ${gatewayUrl}`);
  } catch (error) {
    spinner.fail();
    // Leave nothing half-started behind (the volumes, and so the data, are kept).
    await engine.compose(file, ["down"]).catch(() => {});
    throw error;
  }
  writeState(files.state, {
    startedAt: new Date().toISOString(),
    processes: [],
    compose: {
      engine: engine.name,
      project,
      file,
      release: options.release,
      services: [
        { name: "control-plane", url: controlPlaneUrl },
        { name: "gateway", url: gatewayUrl },
      ],
    },
    ...(options.ui ? { ui: { url: `${controlPlaneUrl}/` } } : {}),
  });
  return {
    controlPlane: controlPlaneUrl,
    gateway: gatewayUrl,
    engine: engine.name,
    composeFile: file,
    ...(options.ui ? { ui: `${controlPlaneUrl}/` } : {}),
    ...(admin ? { admin } : {}),
  };
}

/** Stops the release's stack: the gateway first (it deregisters), then the rest; the volumes stay. */
export async function stopRelease(compose: ComposeState): Promise<void> {
  const engine = await findComposeEngine(compose.project);
  const file = compose.file;
  await engine.compose(file, ["stop", "gateway"]).catch(() => {});
  await engine.compose(file, ["down"]);
}

/** Until the service answers ready; fails at once, with its last lines, when its container stops. */
async function waitHealthy(engine: ComposeEngine, file: string, service: string, url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (let polls = 1; !(await health(url)).ready; polls++) {
    const stopped = polls % 8 === 0 && !(await engine.running(service));
    if (stopped || Date.now() > deadline) {
      const why = stopped ? "its container stopped" : `not ready on ${url} after ${READY_TIMEOUT_MS / 1000} s`;
      throw cliErrors.composeFailed(
        `${engine.name} up ${service}`,
        `${why}; its last lines:\n${await engine.logs(file, service)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
