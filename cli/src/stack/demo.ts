/**
 * `atrium run --demo`: imports the demo pet store from its URL, and publishes it behind an API
 * key on the local gateway group, with audit events on (the stack's gateway writes them to a
 * file). Idempotent: a second run reuses what exists and renews the key, because a key is only
 * ever shown when it is created. A second Exposition of the same Service shows keys elicited
 * from each user: its backend (the pet store below /keyed) needs a per-user key, which the
 * gateway asks each 2025 MCP session for on its elicitation page (no authorization server needed).
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
  /** The Exposition whose backend needs each user's own key (asked for through URL elicitation). */
  keyedEndpoint: string;
}

const NAME = "demo-petstore";
const KEYED_NAME = "demo-petstore-keys";

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
  const keyedPlan =
    (await find("/configuration-plans", planWithKey, KEYED_NAME)) ??
    (await api.post(
      "/configuration-plans",
      {
        name: KEYED_NAME,
        serviceId: service.id,
        backendEndpoint: `${options.backendUrl}/keyed`,
        backendSecret: {
          elicit: { description: "Your Pet Store key (any text, e.g. pk_demo_alice)" },
          name: "X-Pet-Key",
        },
        audit: true,
      },
      planWithKey,
    ));
  if (!(await find("/expositions", expositionView, KEYED_NAME))) {
    await api.post("/expositions", { name: KEYED_NAME, configurationPlanId: keyedPlan.id, gatewayGroupId: group.id });
  }
  const organization = (await api.get("/organization", organizationView)).name;
  return {
    endpoint: `${options.gatewayUrl}/mcp/${organization}/${NAME}`,
    apiKey,
    keyedEndpoint: `${options.gatewayUrl}/mcp/${organization}/${KEYED_NAME}`,
  };
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
    "",
    `Per-user backend keys: ${demo.keyedEndpoint}`,
    "  Its pet store needs each user's own key. Connect a 2025 MCP client (e.g. the MCP Inspector,",
    "  Streamable HTTP, no API key) and call listPets:",
    "  1. the call is answered with URL_ELICITATION_REQUIRED (-32042) and a page URL on the gateway;",
    "  2. open that URL in a browser and give any key (the key 'revoked' is refused by the pet store);",
    "  3. call listPets again: the gateway sends your key as X-Pet-Key, for this MCP session only.",
  ].join("\n");
}
