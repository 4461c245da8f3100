/**
 * The gateway set up the way the official MCP conformance suite expects its server under test:
 * a backend HTTP API whose operations are the suite's fixture tools (`test_simple_text`, …),
 * imported as a Service and published through an Exposition, with Resources (`test://…`) and
 * Prompts (`test_simple_prompt`, …) records on the Service. A control plane (PGlite) and one
 * gateway serve it on loopback.
 *
 * The plan has no API key: the conformance CLI cannot send custom headers. DNS-rebinding
 * protection stays on (localhost names only), so the CLI must be pointed at
 * `http://localhost:<port>/mcp/<exposition id>`.
 *
 * Each fixture tool answers what the suite's reference server answers, as far as an HTTP
 * response can say it: text, an image, audio, an error status. The notifications the suite
 * looks for come from the gateway, about real backend calls: `test_tool_with_progress`'s backend
 * is slow, so the gateway (whose progress threshold the fixture sets to PROGRESS_AFTER_MS) sends
 * progress while it waits; `test_tool_with_logging`'s log messages are the gateway's account of
 * its call; `test_reconnection`'s backend outlasts the fixture gateway's SSE poll
 * (SSE_POLL_AFTER_MS), so the gateway primes the answer stream, closes its connection, and the
 * suite resumes it with `Last-Event-ID` to read the answer. Mixed content and embedded resources are the backend's own answers:
 * `test_multiple_content_types` answers multipart/mixed (text, a PNG, a JSON document at a
 * Content-Location), `test_embedded_resource` a JSON array of MCP content blocks its operation
 * declares with `x-mcp-content: true`. The prompts hold an image and an embedded resource; the
 * list-change hooks (`test_trigger_*_change`) change records through the control plane's REST
 * API, so the gateway's notifications follow a real change stream event. The plan has
 * `elicitMissingArguments`: the `test_input_required_result_*` tools and prompt have required
 * arguments the suite leaves out, which the gateway asks the user for (input_required, form mode)
 * before calling the backend with the answers. Tools whose scenario
 * needs what a backend HTTP call cannot express (server-to-client requests) still exist, so that
 * those scenarios fail on the missing capability and not on an unknown tool name; see
 * expected-failures-*.yml.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiClient, startTestControlPlane, type TestControlPlane } from "@atrium/control-plane/testing";
import { type Gateway, startGateway } from "../src/gateway.ts";
import { listenLocally, testGatewayConfig } from "../src/testing.ts";

/** 1×1 red PNG. */
export const RED_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/** A 10 ms, 8 kHz, 8-bit mono WAV of silence. */
export function silentWav(samples = 80): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 0x80)]);
}

/** The fixture gateway's progress threshold and interval (ATRIUM_GATEWAY_PROGRESS_AFTER_MS). */
export const PROGRESS_AFTER_MS = 200;
/** How long `test_tool_with_progress`'s backend takes: four thresholds, so the suite gets its three notifications. */
export const SLOW_BACKEND_MS = 4 * PROGRESS_AFTER_MS;
/**
 * The fixture gateway closes the connection of a 2025-11-25 call running this long, after its
 * priming event (ATRIUM_GATEWAY_SSE_POLL_AFTER_MS): past the progress tool's backend, so only
 * `test_reconnection` is polled.
 */
export const SSE_POLL_AFTER_MS = 1_000;
/** How long `test_reconnection`'s backend takes: past the poll, so the suite resumes the stream to read the answer. */
export const RECONNECTION_BACKEND_MS = SSE_POLL_AFTER_MS + 500;

export const TEXTS = {
  simple: "This is a simple text response for testing.",
  error: "This tool intentionally returns an error for testing",
  staticText: "This is the content of the static text resource.",
  embedded: "This is an embedded resource content.",
  mixed: "Multiple content types test:",
} as const;

/** The boundary of `test_multiple_content_types`' multipart/mixed answer. */
const MIXED_BOUNDARY = "conformance-mixed";

/** `test_multiple_content_types`' answer: text, an image, and a JSON document at a URI (an embedded resource). */
function mixedContentBody(): Buffer {
  const part = (headers: string, body: string | Buffer) => [
    Buffer.from(`--${MIXED_BOUNDARY}\r\n${headers}\r\n\r\n`),
    Buffer.from(body),
    Buffer.from("\r\n"),
  ];
  return Buffer.concat([
    ...part("Content-Type: text/plain; charset=utf-8", TEXTS.mixed),
    ...part("Content-Type: image/png", RED_PIXEL_PNG),
    ...part(
      "Content-Type: application/json\r\nContent-Location: test://mixed-content-resource",
      JSON.stringify({ test: "data", value: 123 }),
    ),
    Buffer.from(`--${MIXED_BOUNDARY}--\r\n`),
  ]);
}

/** A GET operation without parameters: operationId = tool name. */
const plainGet = (operationId: string, summary: string, contentType: string) => ({
  get: {
    operationId,
    summary,
    responses: { "200": { description: "ok", content: { [contentType]: {} } } },
  },
});

/** A GET operation with required string (then boolean) query parameters. */
const getWithQuery = (operationId: string, summary: string, names: string[], flags: string[] = []) => ({
  get: {
    operationId,
    summary,
    parameters: [
      ...names.map((name) => ({ name, in: "query", required: true, schema: { type: "string" } })),
      ...flags.map((name) => ({ name, in: "query", required: true, schema: { type: "boolean" } })),
    ],
    responses: { "200": { description: "ok", content: { "text/plain": {} } } },
  },
});

/** The backend's API; each operationId is a tool name the conformance scenarios call. */
export const CONFORMANCE_OPENAPI = {
  openapi: "3.0.3",
  info: { title: "MCP conformance fixture", version: "1.0.0" },
  paths: {
    "/simple-text": plainGet("test_simple_text", "Returns simple text", "text/plain"),
    "/image": plainGet("test_image_content", "Returns a PNG image", "image/png"),
    "/audio": plainGet("test_audio_content", "Returns a WAV recording", "audio/wav"),
    "/error": plainGet("test_error_handling", "Always fails", "text/plain"),
    "/embedded-resource": {
      get: {
        ...plainGet("test_embedded_resource", "Returns a text document as an MCP resource", "application/json").get,
        "x-mcp-content": true,
      },
    },
    "/multiple-content-types": plainGet(
      "test_multiple_content_types",
      "Returns text, an image and a JSON document",
      "multipart/mixed",
    ),
    "/tool-with-logging": plainGet("test_tool_with_logging", "Runs for ~100 ms", "text/plain"),
    "/tool-with-progress": plainGet("test_tool_with_progress", `Runs for ~${SLOW_BACKEND_MS} ms`, "text/plain"),
    "/reconnection": plainGet("test_reconnection", `Runs for ~${RECONNECTION_BACKEND_MS} ms`, "text/plain"),
    "/sampling": getWithQuery("test_sampling", "Echoes a prompt", ["prompt"]),
    "/elicitation": getWithQuery("test_elicitation", "Echoes a message", ["message"]),
    "/elicitation-sep1034-defaults": plainGet("test_elicitation_sep1034_defaults", "Returns fixed text", "text/plain"),
    "/elicitation-sep1330-enums": plainGet("test_elicitation_sep1330_enums", "Returns fixed text", "text/plain"),
    // Diagnostic tools of server-stateless (2026-07-28): the suite calls them and inspects the
    // response stream for log notifications (none may come without `_meta` logLevel) and for
    // server-to-client requests (none may come on a response stream). Any backend tool serves.
    "/logging-tool": plainGet("test_logging_tool", "Returns fixed text", "text/plain"),
    "/streaming-elicitation": plainGet("test_streaming_elicitation", "Returns fixed text", "text/plain"),
    // Diagnostic hooks of server-stateless (2026-07-28) for servers declaring listChanged: each
    // call changes a record through the control plane's REST API, as an operator would; the
    // gateway hears of it on the change stream and tells the open listen streams.
    "/trigger-tool-change": plainGet("test_trigger_tool_change", "Adds or removes a tool", "text/plain"),
    "/trigger-prompt-change": plainGet("test_trigger_prompt_change", "Adds or removes a prompt", "text/plain"),
    // SEP-2322 input_required (2026-07-28): the suite calls these without arguments; the plan
    // asks for missing arguments (elicitMissingArguments), so the gateway asks the user for each
    // required one through a form and calls the backend with the answers. `user_name` is an
    // object parameter (deepObject: `user_name[name]=…`), asked as a form of its properties.
    "/input-required/elicitation": {
      get: {
        operationId: "test_input_required_result_elicitation",
        summary: "Greets a user by name",
        parameters: [
          {
            name: "user_name",
            in: "query",
            required: true,
            style: "deepObject",
            schema: {
              type: "object",
              properties: { name: { type: "string", description: "Your name" } },
              required: ["name"],
            },
          },
        ],
        responses: { "200": { description: "ok", content: { "text/plain": {} } } },
      },
    },
    "/input-required/request-state": getWithQuery("test_input_required_result_request_state", "Confirms", [], ["ok"]),
    "/input-required/multi-round": getWithQuery(
      "test_input_required_result_multi_round",
      "Says whose favourite colour it is",
      ["name", "color"],
    ),
    "/input-required/tampered-state": getWithQuery("test_input_required_result_tampered_state", "Confirms", [], ["ok"]),
    "/input-required/capabilities": getWithQuery("test_input_required_result_capabilities", "Confirms", [], ["ok"]),
    // SEP-2243 custom headers: the suite finds the first tool with an `x-mcp-header` string
    // property and checks that calls are refused unless Mcp-Param-Region agrees with `region`.
    "/param-headers": {
      get: {
        operationId: "test_param_headers",
        summary: "Echoes a region, which clients mirror into Mcp-Param-Region",
        parameters: [
          { name: "region", in: "query", required: true, schema: { type: "string", "x-mcp-header": "Region" } },
        ],
        responses: { "200": { description: "ok", content: { "text/plain": {} } } },
      },
    },
  },
};

/** The suite's JSON Schema 2020-12 tool (SEP-1613, SEP-2106), as a CustomTools entry: its inputSchema is taken as written. */
export const JSON_SCHEMA_2020_12_TOOL = {
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
    properties: {
      name: { type: "string" },
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword (if/then/else), not a thenable
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  },
  request: { method: "POST", path: "/json-schema-2020-12", body: '{"name": {{name}}}' },
};

export const RESOURCES = {
  resources: [
    {
      name: "static-text",
      uri: "test://static-text",
      description: "A fixed text resource",
      mimeType: "text/plain",
      text: TEXTS.staticText,
    },
    {
      name: "static-binary",
      uri: "test://static-binary",
      description: "A PNG read from the backend",
      mimeType: "image/png",
      fromBackend: { path: "/static-binary" },
    },
    {
      name: "watched-resource",
      uri: "test://watched-resource",
      description: "A resource clients may subscribe to",
      mimeType: "text/plain",
      text: "Watched resource content.",
    },
  ],
  resourceTemplates: [
    {
      name: "template-data",
      uriTemplate: "test://template/{id}/data",
      description: "Data for an id, read from the backend",
      mimeType: "application/json",
      fromBackend: { path: "/template/{{id}}/data" },
    },
  ],
};

export const PROMPTS = {
  prompts: [
    {
      name: "test_simple_prompt",
      description: "A simple prompt without arguments",
      messages: [{ role: "user", text: "This is a simple prompt for testing." }],
    },
    {
      name: "test_prompt_with_arguments",
      description: "A prompt with two required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true, values: ["paris", "park", "party"] },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      messages: [{ role: "user", text: "Prompt with arguments: arg1='{{arg1}}', arg2='{{arg2}}'" }],
    },
    {
      name: "test_prompt_with_embedded_resource",
      description: "A prompt embedding a resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
      messages: [
        {
          role: "user",
          resource: { uri: "{{resourceUri}}", mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
        { role: "user", text: "Please process the embedded resource above." },
      ],
    },
    {
      // SEP-2322: prompts/get without `context`; the gateway asks the user for it (elicitMissingArguments).
      name: "test_input_required_result_prompt",
      description: "A prompt whose required argument the gateway asks the user for",
      arguments: [{ name: "context", description: "What context should the prompt use?", required: true }],
      messages: [{ role: "user", text: "Answer with this context in mind: {{context}}" }],
    },
    {
      name: "test_prompt_with_image",
      description: "A prompt with an image",
      messages: [
        { role: "user", image: { mimeType: "image/png", data: RED_PIXEL_PNG.toString("base64") } },
        { role: "user", text: "Please analyze the image above." },
      ],
    },
  ],
};

export interface FixtureBackend {
  url: string;
  close(): Promise<void>;
}

/** What the trigger tools change through the control plane (set once the records exist). */
export interface RecordChanges {
  tools?: () => Promise<void>;
  prompts?: () => Promise<void>;
}

/** The backend the fixture tools and resources read from (node:http on 127.0.0.1). */
export async function startConformanceBackend(changes: RecordChanges = {}): Promise<FixtureBackend> {
  const wav = silentWav();
  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { "content-type": type }).end(body);
  };
  const later = (ms: number, action: () => void) => setTimeout(action, ms).unref();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://backend");
    const path = url.pathname;
    const template = /^\/template\/([^/]+)\/data$/.exec(path);
    if (template) {
      const id = decodeURIComponent(template[1] ?? "");
      return send(res, 200, "application/json", JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }));
    }
    const change =
      path === "/trigger-tool-change" ? changes.tools : path === "/trigger-prompt-change" ? changes.prompts : undefined;
    if (change) {
      return void change().then(
        () => send(res, 200, "text/plain; charset=utf-8", "Changed."),
        (error: Error) => send(res, 500, "text/plain; charset=utf-8", error.message),
      );
    }
    switch (path) {
      case "/simple-text":
        return send(res, 200, "text/plain; charset=utf-8", TEXTS.simple);
      case "/image":
      case "/static-binary":
        return send(res, 200, "image/png", RED_PIXEL_PNG);
      case "/audio":
        return send(res, 200, "audio/wav", wav);
      case "/error":
        return send(res, 500, "text/plain; charset=utf-8", TEXTS.error);
      case "/embedded-resource": {
        const resource = { uri: "test://embedded-resource", mimeType: "text/plain", text: TEXTS.embedded };
        return send(res, 200, "application/json", JSON.stringify([{ type: "resource", resource }]));
      }
      case "/multiple-content-types":
        return send(res, 200, `multipart/mixed; boundary=${MIXED_BOUNDARY}`, mixedContentBody());
      case "/tool-with-logging":
        return later(100, () => send(res, 200, "text/plain; charset=utf-8", "Tool execution completed"));
      case "/tool-with-progress":
        return later(SLOW_BACKEND_MS, () => send(res, 200, "text/plain; charset=utf-8", "Tool execution completed"));
      case "/reconnection":
        return later(RECONNECTION_BACKEND_MS, () =>
          send(res, 200, "text/plain; charset=utf-8", "Reconnection test completed successfully"),
        );
      case "/sampling":
        return send(res, 200, "text/plain; charset=utf-8", `Prompt: ${url.searchParams.get("prompt") ?? ""}`);
      case "/elicitation":
        return send(res, 200, "text/plain; charset=utf-8", `Message: ${url.searchParams.get("message") ?? ""}`);
      case "/input-required/elicitation":
        return send(res, 200, "text/plain; charset=utf-8", `Hello, ${url.searchParams.get("user_name[name]")}!`);
      case "/input-required/multi-round": {
        const { name, color } = Object.fromEntries(url.searchParams);
        return send(res, 200, "text/plain; charset=utf-8", `${name}'s favourite colour is ${color}.`);
      }
      case "/input-required/request-state":
      case "/input-required/tampered-state":
      case "/input-required/capabilities":
        return send(res, 200, "text/plain; charset=utf-8", `Confirmed: ok=${url.searchParams.get("ok")}`);
      case "/param-headers":
        return send(res, 200, "text/plain; charset=utf-8", `Region: ${url.searchParams.get("region") ?? ""}`);
      case "/elicitation-sep1034-defaults":
      case "/elicitation-sep1330-enums":
        return send(res, 200, "text/plain; charset=utf-8", "The backend cannot ask the user anything.");
      case "/logging-tool":
      case "/streaming-elicitation":
        return send(res, 200, "text/plain; charset=utf-8", "Done.");
      case "/json-schema-2020-12":
        return send(res, 200, "application/json", JSON.stringify({ ok: true }));
      default:
        return send(res, 404, "text/plain; charset=utf-8", `no route ${req.method} ${path}`);
    }
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handle(req, res));
  });
  return listenLocally(server);
}

export interface ConformanceStack {
  controlPlane: TestControlPlane;
  backend: FixtureBackend;
  gateway: Gateway;
  expositionId: string;
  /** What the conformance CLI is pointed at: `http://localhost:<port>/mcp/<exposition id>`. */
  mcpUrl: string;
  close(): Promise<void>;
}

async function created(admin: ApiClient, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await admin.call("POST", path, body);
  if (response.status !== 201) {
    throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** Creates the record at `path` on one call and deletes it on the next, so each call changes a list. */
function toggler(admin: ApiClient, path: string, body: Record<string, unknown>): () => Promise<void> {
  let id: string | undefined;
  return async () => {
    if (id === undefined) id = (await created(admin, path, body)).id as string;
    else {
      const removed = await admin.call("DELETE", `${path}/${id}`);
      if (removed.status !== 204) throw new Error(`DELETE ${path}/${id} answered ${removed.status}`);
      id = undefined;
    }
  };
}

/** Control plane, backend, records and a gateway serving the conformance fixture; `close()` stops all. */
export async function startConformanceStack(options: { logLevel?: string } = {}): Promise<ConformanceStack> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const controlPlane = await startTestControlPlane("pglite");
    cleanups.push(() => controlPlane.close());
    const changes: RecordChanges = {};
    const backend = await startConformanceBackend(changes);
    cleanups.push(() => backend.close());
    const { admin } = controlPlane;

    const service = await created(admin, "/api/v1/services", {
      name: "conformance",
      version: "1",
      openapi: { inline: JSON.stringify(CONFORMANCE_OPENAPI) },
    });
    const serviceId = service.id as string;
    await created(admin, "/api/v1/custom-tools", { name: "conformance", serviceId, tools: [JSON_SCHEMA_2020_12_TOOL] });
    await created(admin, "/api/v1/resources", { name: "conformance", serviceId, ...RESOURCES });
    await created(admin, "/api/v1/prompts", { name: "conformance", serviceId, ...PROMPTS });
    changes.tools = toggler(admin, "/api/v1/custom-tools", {
      name: "conformance-dynamic",
      serviceId,
      tools: [
        { name: "test_dynamic_tool", description: "Comes and goes", request: { method: "GET", path: "/simple-text" } },
      ],
    });
    changes.prompts = toggler(admin, "/api/v1/prompts", {
      name: "conformance-dynamic",
      serviceId,
      prompts: [
        { name: "test_dynamic_prompt", description: "Comes and goes", messages: [{ role: "user", text: "Hi." }] },
      ],
    });
    const plan = await created(admin, "/api/v1/configuration-plans", {
      name: "conformance",
      serviceId,
      backendEndpoint: backend.url,
      backendTimeoutMs: 5_000,
      elicitMissingArguments: true,
    });
    const group = await created(admin, "/api/v1/gateway-groups", { name: "conformance", labels: { suite: "mcp" } });
    const exposition = await created(admin, "/api/v1/expositions", {
      name: "conformance",
      configurationPlanId: plan.id,
      gatewayGroupId: group.id,
    });
    const expositionId = exposition.id as string;
    const token = (await created(admin, "/api/v1/api-tokens", { name: "conformance-gateway", validityDays: 1 }))
      .token as string;

    const id = "gw-conformance";
    const cacheDir = join(tmpdir(), `atrium-conformance-${randomBytes(6).toString("hex")}`);
    cleanups.push(async () => rmSync(cacheDir, { recursive: true, force: true }));
    const config = testGatewayConfig({
      controlPlaneUrl: controlPlane.url,
      controlPlaneToken: token,
      id,
      labels: { suite: "mcp" },
      cacheDir,
      logLevel: options.logLevel ?? "silent",
      progressAfterMs: PROGRESS_AFTER_MS,
      ssePollAfterMs: SSE_POLL_AFTER_MS,
    });
    const gateway = await startGateway(config);
    cleanups.push(() => gateway.close());

    const expectedTools = Object.keys(CONFORMANCE_OPENAPI.paths).length + 1;
    await waitFor(() => {
      const served = gateway.registry.byId(expositionId);
      return (
        gateway.sync.ready &&
        served !== undefined &&
        served.toolset.tools.length === expectedTools &&
        served.exposition.resources.length === RESOURCES.resources.length &&
        served.exposition.prompts.length === PROMPTS.prompts.length
      );
    }, "the gateway serving the conformance exposition");

    const { port } = new URL(gateway.url);
    return {
      controlPlane,
      backend,
      gateway,
      expositionId,
      mcpUrl: `http://localhost:${port}/mcp/${expositionId}`,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
