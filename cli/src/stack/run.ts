/**
 * `atrium run`: the control plane on the embedded database and one gateway as background
 * processes (and, with --demo, a demo backend published as an MCP endpoint). Progress is shown
 * until each is ready; the first start creates the admin, shows its password once and logs
 * the CLI in.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createdToken, loginAnswer } from "@atrium/contract/rest";
import { ensureUiBundle } from "@atrium/ui";
import ora from "ora";
import { type ApiClient, apiClient } from "../api.ts";
import { loadCredentials, saveCredentials } from "../config.ts";
import type { CliIo } from "../context.ts";
import { cliErrors } from "../errors.ts";
import { ensureClusterKey } from "./cluster-key.ts";
import { type DemoEndpoint, setUpDemo } from "./demo.ts";
import { stackFiles } from "./paths.ts";
import { isAlive, type StackProcess, startDetached, stopProcess, waitReady } from "./processes.ts";
import { readState, writeState } from "./state.ts";

export interface RunOptions {
  controlPlanePort: number;
  gatewayPort: number;
  /** The gateway's management listener (metrics), on 127.0.0.1. */
  gatewayManagementPort: number;
  demoPort: number;
  demo: boolean;
  ui: boolean;
}

const script = (specifier: string) => fileURLToPath(import.meta.resolve(specifier));

export interface RunResult {
  controlPlane: string;
  gateway: string;
  /** Where the gateway's Prometheus metrics are. */
  metrics: string;
  /** The file the gateway appends audit events to. */
  auditLog: string;
  admin?: { organization: string; username: string; password: string };
  demo?: DemoEndpoint;
  /** The web UI (`--ui`), served by the control plane. */
  ui?: string;
}

export async function runStack(options: RunOptions, io: CliIo): Promise<RunResult> {
  const files = stackFiles();
  const running = readState(files.state)?.processes.filter((p) => isAlive(p.pid)) ?? [];
  if (running.length > 0) {
    throw cliErrors.usage(
      `Atrium is already running (${running.map((p) => `${p.name} ${p.url}`).join(", ")}): ` +
        "`atrium status` shows it, `atrium stop` stops it",
    );
  }
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  const spinner = ora({ stream: io.stderr, isEnabled: Boolean(io.stderr.isTTY) });
  const started: StackProcess[] = [];
  const controlPlaneUrl = `http://127.0.0.1:${options.controlPlanePort}`;
  try {
    // First start: the CLI chooses the admin password, so it can show it once and log in with it.
    const firstStart = !existsSync(files.controlPlaneData);
    const admin = firstStart
      ? { organization: "default", username: "admin", password: randomBytes(15).toString("base64url") }
      : undefined;
    let uiDir: string | undefined;
    if (options.ui) {
      // Built once per version of the UI's sources, into the cache (a few seconds), never into the checkout.
      spinner.start("Preparing the web UI");
      const bundle = await ensureUiBundle({ onBuild: (dir) => (spinner.text = `Building the web UI into ${dir}`) });
      uiDir = bundle.dir;
      spinner.succeed(`Web UI ${bundle.built ? "built" : "ready"} (${bundle.dir})`);
    }
    spinner.start(`Starting the control plane (embedded database in ${files.controlPlaneData})`);
    const controlPlane = startDetached(
      "control-plane",
      script("@atrium/control-plane/main"),
      {
        ATRIUM_PORT: String(options.controlPlanePort),
        ATRIUM_HOST: "127.0.0.1",
        ATRIUM_DATA_DIR: files.controlPlaneData,
        ATRIUM_DATABASE_URL: "",
        ...(admin ? { ATRIUM_ADMIN_PASSWORD: admin.password } : {}),
        // The playground calls the gateway from the page: its origin in the UI's CSP connect-src.
        ...(uiDir
          ? { ATRIUM_UI_DIR: uiDir, ATRIUM_UI_GATEWAY_ORIGINS: `http://localhost:${options.gatewayPort}` }
          : {}),
        // The demo pet store is imported from a loopback URL, which the SSRF policy refuses unless opened.
        ...(options.demo ? { ATRIUM_IMPORT_ALLOW_HOSTS: `127.0.0.1:${options.demoPort}` } : {}),
      },
      files.logs,
      controlPlaneUrl,
    );
    started.push(controlPlane);
    await waitReady(controlPlane);
    spinner.succeed(`Control plane ready on ${controlPlaneUrl}`);

    // Only needed for what does not exist yet (the gateway's token) and for the demo.
    let api: ApiClient | undefined;
    const adminApiOnce = async () => {
      api ??= await adminApi(controlPlaneUrl, admin, io);
      return api;
    };
    const token = await gatewayToken(adminApiOnce, files.gatewayToken);

    spinner.start("Starting the gateway");
    createPrivateFile(files.gatewayAuditLog);
    const gatewayUrl = `http://localhost:${options.gatewayPort}`;
    const gateway = startDetached(
      "gateway",
      script("@atrium/gateway/main"),
      {
        ATRIUM_CONTROL_PLANE_URL: controlPlaneUrl,
        ATRIUM_CONTROL_PLANE_TOKEN_FILE: token,
        ATRIUM_GATEWAY_ID: "local",
        ATRIUM_GATEWAY_FQDNS: `localhost:${options.gatewayPort}`,
        ATRIUM_GATEWAY_LABELS: "env=local",
        ATRIUM_GATEWAY_PORT: String(options.gatewayPort),
        ATRIUM_GATEWAY_MANAGEMENT_PORT: String(options.gatewayManagementPort),
        ATRIUM_GATEWAY_HOST: "127.0.0.1",
        ATRIUM_GATEWAY_CACHE_DIR: files.gatewayCache,
        ATRIUM_GATEWAY_AUDIT_FILE: files.gatewayAuditLog,
        ATRIUM_GATEWAY_CLUSTER_KEY_FILE: ensureClusterKey(files.gatewayClusterKey),
        // The web UI's playground (either name of the control plane's address) may call the gateway.
        ...(uiDir
          ? { ATRIUM_GATEWAY_CORS_ORIGINS: `${controlPlaneUrl},http://localhost:${options.controlPlanePort}` }
          : {}),
      },
      files.logs,
      gatewayUrl,
    );
    started.push(gateway);
    await waitReady(gateway);
    spinner.succeed(`Gateway ready on ${gatewayUrl}`);

    let demo: DemoEndpoint | undefined;
    if (options.demo) {
      spinner.start("Starting the demo pet store and publishing it");
      const backend = startDetached(
        "demo-backend",
        script("@atrium/demo"),
        { ATRIUM_DEMO_PORT: String(options.demoPort) },
        files.logs,
        `http://127.0.0.1:${options.demoPort}`,
      );
      started.push(backend);
      await waitReady(backend);
      demo = await setUpDemo(await adminApiOnce(), { backendUrl: backend.url, gatewayUrl });
      spinner.succeed(`Demo published: ${demo.endpoint}`);
    }
    writeState(files.state, {
      startedAt: new Date().toISOString(),
      processes: started,
      gatewayAuditLog: files.gatewayAuditLog,
      ...(demo ? { demo: { endpoint: demo.endpoint } } : {}),
      ...(uiDir ? { ui: { url: `${controlPlaneUrl}/` } } : {}),
    });
    return {
      controlPlane: controlPlaneUrl,
      gateway: gatewayUrl,
      metrics: `http://127.0.0.1:${options.gatewayManagementPort}/q/metrics`,
      auditLog: files.gatewayAuditLog,
      ...(admin ? { admin } : {}),
      ...(demo ? { demo } : {}),
      ...(uiDir ? { ui: `${controlPlaneUrl}/` } : {}),
    };
  } catch (error) {
    spinner.fail();
    // Leave nothing half-started behind.
    for (const process_ of started.reverse()) await stopProcess(process_.pid, 5000);
    throw error;
  }
}

/** An existing file kept, a new one created: either way 0600 (audit events name users and addresses). */
function createPrivateFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, "a", 0o600));
  chmodSync(file, 0o600);
}

/** Logged in as the admin: with the first-start password, or the stored login of a later start. */
export async function adminApi(url: string, admin: RunResult["admin"], io: CliIo) {
  if (admin) {
    const login = await apiClient({ baseUrl: url }).post("/login", admin, loginAnswer);
    saveCredentials(
      {
        controlPlaneUrl: url,
        organization: admin.organization,
        username: admin.username,
        token: login.token,
        expiresAt: login.expiresAt,
      },
      io.env,
    );
    return apiClient({ baseUrl: url, token: login.token });
  }
  const credentials = loadCredentials(io.env);
  if (!credentials || Date.parse(credentials.expiresAt) <= Date.now() || credentials.controlPlaneUrl !== url) {
    throw cliErrors.notLoggedIn();
  }
  return apiClient({ baseUrl: url, token: credentials.token });
}

/** The gateway's API token: created once (valid ten years), kept 0600 in the stack folder. */
export async function gatewayToken(api: () => Promise<ApiClient>, file: string): Promise<string> {
  if (existsSync(file)) return file;
  const created = await (await api()).post(
    "/api-tokens",
    { name: `local-gateway-${randomBytes(3).toString("hex")}`, validityDays: 3650 },
    createdToken,
  );
  writeFileSync(file, `${created.token}\n`, { mode: 0o600 });
  return file;
}
