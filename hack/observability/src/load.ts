/**
 * A real local stack for the dashboard preview (the gateway tests' own: a control plane on PGlite,
 * the fixture pet-store backend, a gateway serving its Exposition, all on 127.0.0.1) and a
 * synthetic load of tool calls: answers, backend 404s, refused arguments, a window of backend
 * timeouts, refused API keys, two Expositions created along the way (changes the gateway applies),
 * and some control-plane API traffic with failed logins. Bounded in count and time; loopback only.
 */
import { managementUrl } from "@atrium/contract/management";
import type { Gateway } from "@atrium/gateway";
import { connectModernClient, modernRequest, type Stack, startStack, waitFor } from "@atrium/gateway/testing";
import type { ScrapeJob } from "./prometheus.ts";

export interface PreviewStack {
  stack: Stack;
  gateway: Gateway;
  /** Prometheus's jobs: the names the plain rule files use. */
  jobs: ScrapeJob[];
  close(): Promise<void>;
}

/** The stack, with one gateway ready with its Exposition. */
export async function startPreviewStack(): Promise<PreviewStack> {
  // Both serve /q/metrics on a management listener only: the control plane's is off unless asked for.
  const stack = await startStack({ backendTimeoutMs: 500, controlPlane: { config: { managementPort: 0 } } });
  try {
    const gateway = await stack.startGateway();
    const controlPlaneMetrics = stack.controlPlane.managementUrl;
    const gatewayMetrics = managementUrl(gateway.app);
    if (!controlPlaneMetrics || !gatewayMetrics) throw new Error("the stack's management listeners did not start");
    return {
      stack,
      gateway,
      jobs: [
        { job: "atrium-control-plane", urls: [controlPlaneMetrics] },
        { job: "atrium-gateway", urls: [gatewayMetrics] },
      ],
      close: () => stack.close(),
    };
  } catch (error) {
    await stack.close();
    throw error;
  }
}

export interface LoadSummary {
  calls: number;
  /** Outcomes as the client saw them: `ok`, `isError`, or `failed` (a JSON-RPC or transport error). */
  byResult: Record<string, number>;
  refusedKeys: number;
  failedLogins: number;
  apiRequests: number;
}

/** Tool calls per second at `t` (0…1 of the run): a slow swell, so the rate panels show a shape. */
function callsPerSecond(t: number): number {
  return Math.round(10 + 6 * Math.sin(2 * Math.PI * t) + 4 * Math.sin(6 * Math.PI * t + 1));
}

/** One tool call of the mix; during the incident window (`incident`), a fifth are the slow tool (timeouts). */
function pickCall(random: () => number, incident: boolean): { name: string; arguments: Record<string, unknown> } {
  const roll = random();
  if (incident && roll < 0.2) return { name: "slow", arguments: {} };
  if (roll < 0.55) return { name: "getPet", arguments: { petId: 1 + Math.floor(random() * 2) } };
  if (roll < 0.75) return { name: "listPets", arguments: {} };
  if (roll < 0.87) return { name: "getPet", arguments: { petId: 404 } }; // backend 404: tool_error
  if (roll < 0.93) return { name: "getPet", arguments: { petId: "Rex" } }; // refused arguments
  return { name: "image", arguments: {} };
}

/** A small seeded generator, so two runs make the same load. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Drives `seconds` of load through the gateway, a second at a time; `progress` gets a line every
 * ten seconds. A second Exposition is created a third of the way in and called from then on.
 */
export async function driveLoad(
  running: PreviewStack,
  seconds: number,
  progress: (line: string) => void = () => {},
): Promise<LoadSummary> {
  const { stack, gateway } = running;
  const random = seeded(24);
  const summary: LoadSummary = { calls: 0, byResult: {}, refusedKeys: 0, failedLogins: 0, apiRequests: 0 };
  const clients = [await connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey, "preview")];
  const admin = stack.controlPlane.admin;
  const count = (key: string) => (summary.byResult[key] = (summary.byResult[key] ?? 0) + 1);
  const call = async (client: (typeof clients)[number], tool: ReturnType<typeof pickCall>) => {
    summary.calls += 1;
    try {
      count((await client.callTool(tool)).isError ? "isError" : "ok");
    } catch {
      count("failed");
    }
  };
  try {
    const started = Date.now();
    for (let second = 0; second < seconds; second += 1) {
      const t = second / seconds;
      if (second === Math.floor(seconds / 3)) {
        const orders = await stack.expose("orders", { plan: { apiKey: true, backendTimeoutMs: 500 } });
        await waitFor(() => gateway.registry.byId(orders.expositionId) !== undefined, "the second Exposition served");
        clients.push(
          await connectModernClient(`${gateway.url}/mcp/${orders.expositionId}`, orders.apiKey ?? "", "preview"),
        );
        progress("load: a second Exposition created through the REST API and served");
      }
      // A second change: the first one's observation only creates the lag histogram's series, and
      // a rate needs an increase it can see.
      if (second === Math.floor((seconds * 2) / 3)) {
        await stack.expose("inventory");
        progress("load: a third Exposition created through the REST API (another change to apply)");
      }
      const incident = t > 0.55 && t < 0.75;
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < callsPerSecond(t); i += 1) {
        const client = clients[Math.floor(random() * clients.length)] ?? clients[0];
        if (client) work.push(call(client, pickCall(random, incident)));
      }
      if (second % 4 === 0) {
        work.push(refusedKey(running).then(() => (summary.refusedKeys += 1)));
        work.push(admin.call("GET", "/api/v1/expositions").then(() => (summary.apiRequests += 1)));
      }
      if (second % 9 === 5) {
        work.push(
          stack.controlPlane.api
            .call("POST", "/api/v1/login", { organization: "default", username: "admin", password: "wrong" })
            .then(() => (summary.failedLogins += 1)),
        );
      }
      await Promise.all(work);
      if ((second + 1) % 10 === 0) progress(`load: ${second + 1}/${seconds} s, ${summary.calls} tool calls`);
      // Each second starts on time, whatever the last one's calls took.
      const next = started + (second + 1) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  }
  return summary;
}

/** A tools/list with a wrong API key: refused (401), counted as an auth decision `invalid_api_key`. */
async function refusedKey({ stack, gateway }: PreviewStack): Promise<void> {
  const response = await fetch(
    `${gateway.url}${stack.mcpPath}`,
    modernRequest("tools/list", {}, { headers: { "x-atrium-key": "not-the-key" } }),
  );
  await response.body?.cancel();
  if (response.status !== 401) throw new Error(`a wrong API key was answered ${response.status}, not 401`);
}
