/**
 * `atrium run --demo`: imports the demo pet store from its URL, and publishes it behind an API
 * key on the local gateway group, with audit events on (the stack's gateway writes them to a
 * file). Idempotent: a second run reuses what exists and renews the key, because a key is only
 * ever shown when it is created.
 */
import {
  expositionView,
  gatewayGroupView,
  listOf,
  organizationView,
  planWithKey,
  serviceView,
} from "@atrium/contract/rest";
import type { z } from "zod";
import type { ApiClient } from "../api.ts";

export interface DemoEndpoint {
  endpoint: string;
  apiKey: string;
}

const NAME = "demo-petstore";

export async function setUpDemo(
  api: ApiClient,
  options: { backendUrl: string; gatewayUrl: string },
): Promise<DemoEndpoint> {
  const find = async <S extends z.ZodType<{ name: string }>>(path: string, view: S, name = NAME) =>
    (await api.get(path, listOf(view))).items.find((item) => item.name === name);
  const service =
    (await find("/services", serviceView)) ??
    (await api.post(
      "/services",
      { name: NAME, version: "1.0.0", openapi: { url: `${options.backendUrl}/openapi.json` } },
      serviceView,
    ));
  const group =
    (await find("/gateway-groups", gatewayGroupView, "local")) ??
    (await api.post(
      "/gateway-groups",
      { name: "local", description: "The local stack's gateway", labels: { env: "local" } },
      gatewayGroupView,
    ));
  const existingPlan = await find("/configuration-plans", planWithKey);
  // Asked for, so always in the answer: a missing key is a broken control plane.
  const withApiKey = planWithKey.required({ apiKey: true });
  let apiKey: string;
  let planId: string;
  if (existingPlan) {
    planId = existingPlan.id;
    apiKey = (await api.post(`/configuration-plans/${planId}/renew-api-key`, undefined, withApiKey)).apiKey;
  } else {
    const plan = await api.post(
      "/configuration-plans",
      { name: NAME, serviceId: service.id, backendEndpoint: options.backendUrl, apiKey: true, audit: true },
      withApiKey,
    );
    planId = plan.id;
    apiKey = plan.apiKey;
  }
  if (!(await find("/expositions", expositionView))) {
    await api.post("/expositions", { name: NAME, configurationPlanId: planId, gatewayGroupId: group.id });
  }
  const organization = (await api.get("/organization", organizationView)).name;
  return { endpoint: `${options.gatewayUrl}/mcp/${organization}/${NAME}`, apiKey };
}

/** What `atrium run --demo` prints: the endpoint, the key, a client configuration and a curl call. */
export function demoInstructions(demo: DemoEndpoint): string {
  const config = {
    mcpServers: { "atrium-demo": { type: "http", url: demo.endpoint, headers: { "x-atrium-key": demo.apiKey } } },
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "listPets",
      arguments: { status: "available" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  return [
    `MCP endpoint: ${demo.endpoint}`,
    `API key:      ${demo.apiKey}   (shown only now; \`atrium config renew-api-key\` makes a new one)`,
    "",
    "MCP client configuration (e.g. VS Code's mcp.json, Claude Desktop, Cursor):",
    JSON.stringify(config, null, 2),
    "",
    "Try it with curl:",
    `curl -s ${demo.endpoint} \\`,
    "  -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\",
    "  -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/call' -H 'mcp-name: listPets' \\",
    `  -H 'x-atrium-key: ${demo.apiKey}' \\`,
    `  -d '${body}'`,
  ].join("\n");
}
