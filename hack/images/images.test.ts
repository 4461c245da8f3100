/**
 * The four component images, built by hack/images/build.sh (cached layers: unchanged sources build
 * in seconds) and run with podman as a deployment runs them: read-only root filesystem, uid 1000,
 * loopback ports, writable folders only where the docs say. Needs root and podman; when podman
 * cannot build or run, these tests fail — they are never skipped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IMAGE_UI_DIR } from "@atrium/ui";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFixture, type Fixture, type Started, startComponent } from "./components.ts";
import {
  buildImages,
  COMPONENTS,
  type Component,
  httpGet,
  imageName,
  inspectImage,
  podman,
  REPO_ROOT,
} from "./containers.ts";

const TAG = "image-test";

/** Runs a script with the image's own node inside the running container (there is no shell). */
async function nodeIn(started: Started, script: string): Promise<string> {
  return (await podman(["exec", started.container.name, "/usr/local/bin/node", "-e", script])).trim();
}

describe("component images", () => {
  let fixture: Fixture;
  const started = new Map<Component, Started>();
  const get = (component: Component) => {
    const item = started.get(component);
    if (!item) throw new Error(`${component} did not start (see the test that starts it)`);
    return item;
  };

  beforeAll(async () => {
    buildImages(COMPONENTS, TAG);
    fixture = await createFixture(TAG);
  }, 1_200_000);

  afterAll(async () => {
    await fixture?.close();
  }, 120_000);

  test("every image: OCI labels, uid 1000, node as the exec-form entrypoint, no shell", async () => {
    for (const component of COMPONENTS) {
      const image = imageName(component, TAG);
      const info = await inspectImage(image);
      expect(info.user).toBe("1000:1000");
      expect(info.entrypoint).toEqual(["/usr/local/bin/node", "src/main.ts"]);
      expect(info.labels).toMatchObject({
        "org.opencontainers.image.title": `atrium-${component}`,
        "org.opencontainers.image.version": TAG,
        "org.opencontainers.image.licenses": "Apache-2.0",
        "org.opencontainers.image.source": expect.stringMatching(/^https:\/\//),
      });
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, component, "package.json"), "utf8"));
      expect(info.labels["org.opencontainers.image.description"]).toBe(manifest.description);
      expect(info.labels["org.opencontainers.image.revision"]).toMatch(/^[0-9a-f]{40}$/);
      await expect(podman(["run", "--rm", "--entrypoint", "/bin/sh", image, "-c", "true"])).rejects.toThrow(
        /no such file|not found|executable file/i,
      );
    }
  });

  test("the gateway image is under 150 MB and holds no database code and no web UI", async () => {
    const image = imageName("gateway", TAG);
    expect((await inspectImage(image)).size).toBeLessThan(150_000_000);
    const found = await podman([
      ...["run", "--rm", "--network=none", "--entrypoint", "/usr/local/bin/node", image, "-e"],
      `const fs = require("node:fs");
       const present = ["@electric-sql/pglite", "pg", "drizzle-orm", "@atrium/control-plane", "vitest", "@modelcontextprotocol/sdk"]
         .filter((name) => fs.existsSync("/app/node_modules/" + name));
       console.log(JSON.stringify({ present, gateway: fs.existsSync("/app/node_modules/@atrium/gateway"), ui: fs.existsSync("${IMAGE_UI_DIR}") }));`,
    ]);
    expect(JSON.parse(found)).toEqual({ present: [], gateway: true, ui: false });
  });

  test("control plane: ready on its embedded database in a tmpfs, read-only root, uid 1000", async () => {
    const controlPlane = await startComponent(fixture, "control-plane");
    started.set("control-plane", controlPlane);
    expect((await httpGet(controlPlane.ready))?.body).toContain('"UP"');
    expect((await httpGet(controlPlane.live))?.status).toBe(200);
    expect(await nodeIn(controlPlane, "console.log(process.getuid(), process.getgid())")).toBe("1000 1000");
    expect(
      await nodeIn(
        controlPlane,
        `try { require("node:fs").writeFileSync("/app/x", ""); } catch (e) { console.log(e.code) }`,
      ),
    ).toBe("EROFS");
    // The database lives in the one writable folder.
    expect(
      await nodeIn(controlPlane, `console.log(require("node:fs").readdirSync("/var/lib/atrium").length > 0)`),
    ).toBe("true");
  }, 180_000);

  // The bundle is built in the image build (Containerfile's ui stage); only its output is in the image.
  test("control plane: serves the web UI it carries (ATRIUM_UI_DIR), without the UI's build tools", async () => {
    const controlPlane = get("control-plane");
    const url = fixture.controlPlane?.url;
    const page = await httpGet({ url: `${url}/` });
    expect(page?.status).toBe(200);
    expect(page?.headers["content-security-policy"]).toContain("default-src 'self'");
    const script = page?.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script, "index.html names its script").toBeDefined();
    const asset = await httpGet({ url: `${url}${script}` });
    expect(asset?.status).toBe(200);
    expect(asset?.headers["cache-control"]).toContain("immutable");
    const contents = await nodeIn(
      controlPlane,
      `const fs = require("node:fs");
       console.log(JSON.stringify({ ui: fs.readdirSync("${IMAGE_UI_DIR}").sort(), vite: fs.existsSync("/app/node_modules/vite"), react: fs.existsSync("/app/node_modules/react"), sources: fs.existsSync("/app/ui/src") }));`,
    );
    expect(JSON.parse(contents)).toEqual({ ui: ["assets", "index.html"], vite: false, react: false, sources: false });
  }, 60_000);

  test("control plane: a data folder it does not own stops the start with a message saying so", async () => {
    // A tmpfs without podman's U option belongs to root, as a volume without fsGroup would.
    const image = imageName("control-plane", TAG);
    const run = podman([
      "run",
      "--rm",
      "--read-only",
      "--network=none",
      "--tmpfs",
      "/var/lib/atrium:rw,mode=0777",
      image,
    ]);
    await expect(run).rejects.toThrow(/\/var\/lib\/atrium \(ATRIUM_DATA_DIR\) must belong to the user .*uid 1000/);
  }, 60_000);

  // The target is "ready within 2 s of start". Wall time depends on what else the two cores run
  // (2–3 s at a load average of 10, 0.9 s on a quiet machine: docs/images.md), so the test holds the
  // start's own cost instead: the CPU the gateway used until its first snapshot, which on a free
  // core is its start time minus podman's ~0.3 s. It is 0.7–0.9 s when quiet, but contention inflates
  // CPU time too (1.4 s seen during a full CI run beside the e2e cluster), so the bound is the 2 s target.
  test("gateway: ready (first snapshot from the control plane) after less than 2 s of CPU", async () => {
    const gateway = await startComponent(fixture, "gateway");
    started.set("gateway", gateway);
    expect(gateway.readyCpuMs, `wall time from podman run: ${Math.round(gateway.readyMs)} ms`).toBeLessThan(2_000);
    expect(await nodeIn(gateway, "console.log(process.getuid())")).toBe("1000");
  }, 90_000);

  test("operator: ready (caches synced) against a real kube-apiserver", async () => {
    const operator = await startComponent(fixture, "operator");
    started.set("operator", operator);
    const ready = await httpGet(operator.ready);
    expect(JSON.parse(ready?.body ?? "{}")).toMatchObject({ status: "UP", checks: { cachesSynced: true } });
  }, 180_000);

  test("webhook: ready over TLS with a mounted certificate", async () => {
    const webhook = await startComponent(fixture, "webhook");
    started.set("webhook", webhook);
    expect((await httpGet(webhook.ready))?.status).toBe(200);
  }, 60_000);

  test("each stops on SIGTERM within 5 s with exit code 0 (gateway first, control plane last)", async () => {
    for (const component of ["gateway", "operator", "webhook", "control-plane"] as const) {
      const stop = await get(component).container.stop(10);
      expect({ component, exitCode: stop.exitCode }).toEqual({ component, exitCode: 0 });
      expect(stop.ms, component).toBeLessThan(5_000);
    }
  }, 120_000);
});
