/**
 * The README quickstart, end to end, as a newcomer runs it: `atrium run --demo --ui` starts the
 * stack in the background and prints an endpoint, a key and the web UI's address; an official MCP client calls a
 * tool with them; `status`, a refused second `run`, `stop`, and a restart that kept the data. The shell
 * has an OTLP endpoint set (a real collector): `run` says so and the stack's gateway exports its spans there.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@atrium/control-plane/testing";
import { appendToLog, keepLogs } from "@atrium/reliability/secrets";
import { startCollector } from "@atrium/test-collector";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = join(import.meta.dirname, "..", "main.ts");
const root = mkdtempSync(join(tmpdir(), "atrium-stack-"));
const collector = await startCollector();
const env = {
  ...process.env,
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlpHttpEndpoint,
  OTEL_BSP_SCHEDULE_DELAY: "100",
  ATRIUM_STACK_DIR: join(root, "stack"),
  ATRIUM_CONFIG_DIR: join(root, "config"),
  NO_COLOR: "1",
};

/** The audit events in `file` once `enough` holds for them (the gateway writes asynchronously). */
async function auditEvents(file: string, enough: (events: AuditEvent[]) => boolean): Promise<AuditEvent[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = readFileSync(file, "utf8");
    const events = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEvent);
    if (enough(events) || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
interface AuditEvent {
  event: { category: string; action: string; outcome: string };
  atrium: { auth?: { mode: string }; tool?: { name: string }; exposition: { name: string } };
}

async function atrium(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [main, ...args], { env, timeout: 120_000 });
    appendToLog("cli", stderr);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    appendToLog("cli", failed.stderr ?? "");
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

afterAll(async () => {
  await atrium("stop");
  await collector.stop();
  keepLogs("cli-stack", join(root, "stack", "logs"));
  rmSync(root, { recursive: true, force: true });
});

describe("atrium run --demo (the quickstart)", () => {
  it("starts the stack, publishes the demo, and an MCP client calls its tools", async () => {
    const ports = [
      "--control-plane-port",
      String(await freePort()),
      "--gateway-port",
      String(await freePort()),
      "--gateway-management-port",
      String(await freePort()),
      "--demo-port",
      String(await freePort()),
    ];
    const started = await atrium("run", "--demo", "--ui", ...ports);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/Admin \(first start\): organization 'default', user 'admin', password '[\w-]+'/);
    // --ui: the control plane serves the web UI (built into the cache) and the URL is printed.
    const uiUrl = /Web UI:\s+(\S+)/.exec(started.stdout)?.[1];
    expect(uiUrl).toBe(`http://127.0.0.1:${ports[1]}/`);
    const page = await fetch(String(uiUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<div id="root"></div>');
    const endpoint = /MCP endpoint: (\S+)/.exec(started.stdout)?.[1];
    const key = /API key:\s+(atr_k_\S+)/.exec(started.stdout)?.[1];
    expect(endpoint).toMatch(/\/mcp\/default\/demo-petstore$/);
    // The playground: the page may connect to the gateway, and the gateway answers its preflight.
    expect(page.headers.get("content-security-policy")).toContain(`connect-src 'self' http://localhost:${ports[3]};`);
    const preflight = await fetch(String(endpoint), {
      method: "OPTIONS",
      headers: { origin: `http://127.0.0.1:${ports[1]}`, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(`http://127.0.0.1:${ports[1]}`);
    expect(statSync(join(root, "stack", "gateway-token")).mode & 0o777).toBe(0o600);

    const client = new Client({ name: "quickstart", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(String(endpoint)), {
        requestInit: { headers: { "x-atrium-key": String(key) } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["listPets", "createPet", "getPet", "deletePet"]);
    const result = await client.callTool({ name: "listPets", arguments: { status: "available" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain("Rex");
    await client.close();

    // Traces: the stack's processes read the shell's OTEL_* variables.
    expect(started.stdout).toContain(`Traces:        exported over OTLP to ${collector.otlpHttpEndpoint}`);
    const spans = await collector.waitForSpans((found) => found.some((span) => span.name === "tools/call listPets"));
    const call = spans.find((span) => span.name === "tools/call listPets");
    expect(call?.resource["service.name"]).toBe("atrium-gateway");
    expect(
      spans.some((span) => span.parentSpanId === call?.spanId && span.attributes["http.request.method"] === "GET"),
    ).toBe(true);

    // The demo plan has audit on: its gateway writes the events to a 0600 file in the stack's folder.
    const auditLog = join(root, "stack", "logs", "gateway-audit.jsonl");
    expect(started.stdout).toContain(`Audit events:  ${auditLog}`);
    expect(statSync(auditLog).mode & 0o777).toBe(0o600);
    const isListPetsCall = (e: AuditEvent) => e.event.action === "tool_call" && e.atrium.tool?.name === "listPets";
    const events = await auditEvents(auditLog, (all) => all.some(isListPetsCall));
    expect(events.find(isListPetsCall)).toMatchObject({
      event: { category: "api", outcome: "success" },
      atrium: { exposition: { name: "demo-petstore" } },
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        event: expect.objectContaining({ category: "authentication", outcome: "success" }),
        atrium: expect.objectContaining({ auth: { mode: "apiKey" } }),
      }),
    );
    expect(readFileSync(auditLog, "utf8")).not.toContain(String(key));

    const status = await atrium("status", "-o", "json");
    const rows = JSON.parse(status.stdout) as { name: string; state: string; version: string; auditLog?: string }[];
    expect(rows.map((r) => [r.name, r.state])).toEqual([
      ["control-plane", "ready"],
      ["gateway", "ready"],
      ["demo-backend", "ready"],
    ]);
    expect(rows.find((r) => r.name === "gateway")?.auditLog).toBe(auditLog);
    expect((await atrium("status")).stdout).toContain(`Audit events: ${auditLog}`);
    expect((await atrium("status")).stdout).toContain(`Web UI: ${uiUrl}`);

    const again = await atrium("run", ...ports);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("already running");

    const stopped = await atrium("stop");
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("control-plane: stopped");
    expect((await atrium("status")).stdout).toContain("not running");

    // Data survives: a second start finds the demo service and shows no admin password.
    const restarted = await atrium("run", "--demo", ...ports);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).not.toContain("Admin (first start)");
    expect(restarted.stdout).not.toContain("Web UI:");
    expect((await fetch(String(uiUrl))).status).toBe(404);
    const services = JSON.parse((await atrium("service", "list", "-o", "json")).stdout) as { name: string }[];
    expect(services.map((s) => s.name)).toEqual(["demo-petstore"]);
  }, 180_000);

  it("writes a Compose file instead with --compose", async () => {
    const written = await atrium("run", "--compose", "--release", "0.1.0");
    expect(written.code, written.stderr).toBe(0);
    const file = join(root, "stack", "compose.yaml");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(written.stdout).toContain("atrium run --release 0.1.0");
    expect(readFileSync(file, "utf8")).toContain("image: localhost/atrium/gateway:0.1.0");
  });
});
