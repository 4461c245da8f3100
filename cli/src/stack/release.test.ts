/**
 * `atrium run --release <version>` on this machine's podman (podman-compose): the release's images
 * as hack/images/build.sh builds them (cached layers), the control plane and a gateway as
 * containers; status, a refused second run, stop with the data kept, a restart that finds its data
 * and serves the web UI (`--ui`), and `--compose` naming the images build.sh makes. Needs root and
 * podman: fails, never skips, when they cannot run.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@atrium/control-plane/testing";
import { IMAGE_UI_DIR } from "@atrium/ui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildImages, keepContainerLogs, podman } from "../../../hack/images/containers.ts";
import { spawnAtrium, testEnv } from "../testing.ts";
import { composeProject } from "./compose.ts";

const TAG = "release-test";
const root = mkdtempSync(join(tmpdir(), "atrium-release-"));
const stackDir = join(root, "stack");
const project = composeProject(stackDir);
const env = testEnv({ ATRIUM_STACK_DIR: stackDir });
const atrium = async (...args: string[]) => {
  // `stop` removes the containers: their logs go to the test run's first, for the secrets scan.
  if (args[0] === "stop") await keepContainerLogs(await containersOfProject());
  return spawnAtrium(args, { env });
};

const containersOfProject = async () =>
  (await podman(["ps", "-a", "--format", "{{.Names}}", "--filter", `label=io.podman.compose.project=${project}`]))
    .split("\n")
    .filter(Boolean);

describe("atrium run --release (a release's containers)", () => {
  let ports: string[];

  beforeAll(async () => {
    buildImages(["control-plane", "gateway"], TAG);
    ports = ["--control-plane-port", String(await freePort()), "--gateway-port", String(await freePort())];
  }, 1_200_000);

  afterAll(async () => {
    await atrium("stop");
    await podman(["volume", "rm", "--force", `${project}_control-plane-data`, `${project}_gateway-cache`]).catch(
      () => {},
    );
    await podman(["network", "rm", "--force", `${project}_default`]).catch(() => {});
    rmSync(root, { recursive: true, force: true });
    rmSync(String(env.ATRIUM_CONFIG_DIR), { recursive: true, force: true });
  }, 120_000);

  it("--compose writes a private Compose file naming the images build.sh makes", async () => {
    const result = await atrium("run", "--compose", "--release", TAG, ...ports);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const file = join(stackDir, "compose.yaml");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const compose = parse(readFileSync(file, "utf8"));
    expect(compose.name).toBe(project);
    expect(compose.services["control-plane"].image).toBe(`localhost/atrium/control-plane:${TAG}`);
    expect(compose.services.gateway.image).toBe(`localhost/atrium/gateway:${TAG}`);
    expect(result.stdout).toContain(`atrium run --release ${TAG}`);
    expect(compose.services["control-plane"].environment.ATRIUM_UI_DIR).toBeUndefined(); // the UI is opt-in
  });

  it("--compose --ui: the control plane serves the bundle its image carries, and the playground may call the gateway", async () => {
    const result = await atrium("run", "--compose", "--ui", "--release", TAG, ...ports);
    expect(result.code).toBe(0);
    const compose = parse(readFileSync(join(stackDir, "compose.yaml"), "utf8"));
    const [controlPlanePort, gatewayPort] = [ports[1], ports[3]];
    expect(compose.services["control-plane"].environment).toMatchObject({
      ATRIUM_UI_DIR: IMAGE_UI_DIR,
      ATRIUM_UI_GATEWAY_ORIGINS: `http://localhost:${gatewayPort}`,
    });
    expect(compose.services.gateway.environment.ATRIUM_GATEWAY_CORS_ORIGINS).toBe(
      `http://127.0.0.1:${controlPlanePort},http://localhost:${controlPlanePort}`,
    );
  });

  it("starts the control plane and a registered gateway, shows them, refuses a second run, stops them", async () => {
    const started = await atrium("run", "--release", TAG, ...ports);
    expect(started.stderr + started.stdout).toContain("Admin (first start)");
    expect(started.code).toBe(0);
    expect(await containersOfProject()).toHaveLength(2);

    const status = await atrium("status", "-o", "json");
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ name: "control-plane", state: "ready", version: expect.any(String) }),
      expect.objectContaining({ name: "gateway", state: "ready" }),
    ]);
    // The CLI is logged in as the admin it created, and the gateway registered with its token.
    const gateways = await atrium("gateway", "list", "-o", "json");
    expect(JSON.parse(gateways.stdout)).toEqual([expect.objectContaining({ id: "gateway-1" })]);

    const again = await atrium("run", "--release", TAG, ...ports);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already running");

    const stopped = await atrium("stop");
    expect(stopped.code).toBe(0);
    expect(await containersOfProject()).toEqual([]);
    expect((await atrium("status")).stdout + (await atrium("status")).stderr).toContain("not running");
  }, 600_000);

  it("a second start, with --ui, finds the data kept in the volumes (no new admin, the same gateway token) and serves the web UI", async () => {
    const started = await atrium("run", "--release", TAG, "--ui", ...ports);
    expect(started.code).toBe(0);
    expect(started.stderr + started.stdout).not.toContain("Admin (first start)");
    const gateways = await atrium("gateway", "list", "-o", "json");
    expect(JSON.parse(gateways.stdout)).toEqual([expect.objectContaining({ id: "gateway-1" })]);
    const ui = `http://127.0.0.1:${ports[1]}/`;
    expect(started.stderr + started.stdout).toContain(`Web UI:        ${ui}`);
    const page = await fetch(ui);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain(`connect-src 'self' http://localhost:${ports[3]}`);
    expect(await page.text()).toContain('<div id="root"></div>');
    const status = await atrium("status");
    expect(status.stdout + status.stderr).toContain(`Web UI: ${ui}`);
    expect((await atrium("stop")).code).toBe(0);
  }, 600_000);

  it("a release whose images are not built: says how to build them", async () => {
    const result = await atrium("run", "--release", "0.0.0-not-built", ...ports);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("hack/images/build.sh --tag 0.0.0-not-built");
  });
});
