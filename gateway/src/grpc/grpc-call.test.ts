/**
 * gRPC tools against a real `@grpc/grpc-js` server on 127.0.0.1 (grpc/testing.ts), through the
 * gateway's own Backends: arguments in proto3 JSON to the wire and back, server streams collected
 * and cut at the plan's limit, status codes as tool errors, the timeout as the deadline (a 504
 * result), the header policy and backend secret as metadata, an unreachable backend, and TLS with
 * a CA of the test's own: the plan's backendTls, and each TLS failure named as an https backend's.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import type { CompiledExposition, GrpcCall } from "@atrium/contract";
import { createPki, freePort, type TestPki } from "@atrium/control-plane/testing";
import { circuitBreaker } from "@atrium/crds";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Metadata } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Backends } from "../backend.ts";
import { ExpositionRegistry } from "../registry.ts";
import { compileToolset } from "../tools/compile.ts";
import { exposition } from "../tools/fixtures.ts";
import type { CallToolResult } from "../tools/mcp.ts";
import { parseBackendEndpoint } from "../tools/request.ts";
import { timeoutResult } from "../tools/result.ts";
import { planCall } from "../tools/runtime.ts";
import { createValidatorCompiler } from "../tools/validator.ts";
import { sendGrpc } from "./call.ts";
import { closeUnusedChannels } from "./channel-sweep.ts";
import { createGrpcClient, GrpcChannels } from "./channels.ts";
import { GrpcRegistries, methodCodec } from "./codec.ts";
import { GRPC_STATUS_META_KEY } from "./result.ts";
import {
  type GrpcPetstore,
  PETSTORE_DESCRIPTOR_SET,
  PETSTORE_SERVICE,
  petOfId,
  petstoreOperation,
  startGrpcPetstore,
} from "./testing.ts";
import { compileGrpcTool } from "./tool.ts";

type Plan = CompiledExposition["plan"];

let petstore: GrpcPetstore;
const backends = new Backends({ maxBodyBytes: 64 * 1024 });
beforeAll(async () => {
  petstore = await startGrpcPetstore();
});
afterAll(async () => {
  await backends.close();
  await petstore.close();
});

function tool(method: string, maxStreamMessages = 100) {
  const operation = petstoreOperation(method);
  if (!operation.grpc) throw new Error("no recipe");
  const validators = createValidatorCompiler();
  const entry = compileGrpcTool(operation, operation.grpc, operation.operationId, validators, {
    registries: new GrpcRegistries(),
    maxStreamMessages,
  });
  expect(validators.warnings).toEqual([]);
  return entry.runtime;
}

function planFor(endpoint: string, settings: Partial<Plan> = {}): Plan {
  return { ...exposition({ backendEndpoint: endpoint }).plan, backendTimeoutMs: 2_000, ...settings };
}

async function call(
  method: string,
  args: unknown,
  options: {
    plan?: Partial<Plan>;
    endpoint?: string;
    maxStreamMessages?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<CallToolResult> {
  const runtime = tool(method, options.maxStreamMessages);
  const planned = planCall(runtime, args);
  if (planned.result) return planned.result;
  const endpoint = options.endpoint ?? petstore.url;
  const plan = planFor(endpoint, options.plan);
  const outcome = await backends.call(parseBackendEndpoint(endpoint), plan, planned.request, options.headers ?? {}, {
    share: runtime,
  });
  if (outcome.kind === "timeout") return timeoutResult(outcome.ms);
  if (outcome.kind !== "response") return { content: [{ type: "text", text: outcome.message }], isError: true };
  return planned.runtime.toResult(outcome.response, {
    maxBytes: 64 * 1024,
    forwardHeaders: plan.headerPolicy?.forwardResponseHeaders ?? [],
  });
}

const rex = petOfId(7);

describe("a unary gRPC tool", () => {
  it("sends its arguments as the request message and answers the response in proto3 JSON", async () => {
    const result = await call("GetPet", { id: "7" });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(rex);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(rex);
    expect(result._meta).toMatchObject({ [GRPC_STATUS_META_KEY]: "OK", "dev.atrium/backendStatus": 200 });
  });

  it("writes every field, those at their default value too", async () => {
    const result = await call("GetPet", {});
    expect(result.structuredContent).toMatchObject({ id: "0", name: "pet 0", status: "PET_STATUS_SOLD" });
  });

  it("answers a status other than OK as a tool error naming the code, with the backend's message", async () => {
    const missing = await call("GetPet", { id: "404" });
    expect(missing).toMatchObject({ isError: true, content: [{ type: "text", text: "NOT_FOUND: no pet 404" }] });
    expect(missing.structuredContent).toBeUndefined();
    expect(missing._meta).toMatchObject({ [GRPC_STATUS_META_KEY]: "NOT_FOUND", "dev.atrium/backendStatus": 404 });
    const invalid = await call("GetPet", { id: "-3" });
    expect(invalid.content).toEqual([{ type: "text", text: "INVALID_ARGUMENT: pet ids are positive, not -3" }]);
  });

  it("refuses arguments the schema or the proto3 JSON mapping refuses, without calling the backend", async () => {
    const before = petstore.received.length;
    const pattern = await call("GetPet", { id: "seven" });
    expect(pattern.isError).toBe(true);
    expect((pattern.content[0] as { text: string }).text).toMatch(/^Invalid arguments:\n- id: /);
    // Within the schema (digits), past int64: only the mapping knows.
    const range = await call("GetPet", { id: "99999999999999999999" });
    expect(range.isError).toBe(true);
    expect((range.content[0] as { text: string }).text).toMatch(/^Invalid arguments:\n- arguments: .*int64/i);
    expect(petstore.received.length).toBe(before);
  });

  it("answers a 504 result when the backend does not answer within the plan's timeout (the call's deadline)", async () => {
    const started = performance.now();
    const result = await call("Slow", { millis: 3_000 }, { plan: { backendTimeoutMs: 200 } });
    expect(result).toEqual(timeoutResult(200));
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("sends the header policy's headers and the backend secret as metadata (lower-case keys)", async () => {
    const result = await call(
      "Echo",
      {},
      {
        plan: {
          headerPolicy: { forwardRequestHeaders: ["X-Request-Id"], setRequestHeaders: { "X-Tenant": "acme" } },
          backendSecret: { source: "value", value: "s3cret", in: "header", name: "Authorization", prefix: "Bearer " },
        },
        headers: { "x-request-id": "req-42", "x-not-forwarded": "no" },
      },
    );
    const metadata = (result.structuredContent as { metadata: Record<string, string> }).metadata;
    expect(metadata).toMatchObject({ "x-request-id": "req-42", "x-tenant": "acme", authorization: "Bearer s3cret" });
    expect(metadata["x-not-forwarded"]).toBeUndefined();
  });

  it("refuses a backend secret the plan puts in the query: a gRPC call has none", async () => {
    const result = await call(
      "GetPet",
      { id: "7" },
      { plan: { backendSecret: { source: "value", value: "s3cret", in: "query", name: "key" } } },
    );
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/query, which a gRPC call has not/);
  });

  it("reports a backend nobody listens on as unreachable, with a correlation id", async () => {
    const port = await freePort();
    const result = await call("GetPet", { id: "7" }, { endpoint: `grpc://127.0.0.1:${port}` });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^The backend is unreachable \(correlation id [0-9a-f]{16}\)$/,
    );
  });

  it("counts unreachable calls for the plan's circuit breaker, which then refuses at once", async () => {
    const port = await freePort();
    const plan = { circuitBreaker: { ...circuitBreaker.parse(undefined), consecutiveFailures: 2 } };
    for (let i = 0; i < 2; i++) await call("GetPet", { id: "7" }, { endpoint: `grpc://127.0.0.1:${port}`, plan });
    const refused = await call("GetPet", { id: "7" }, { endpoint: `grpc://127.0.0.1:${port}`, plan });
    expect((refused.content[0] as { text: string }).text).toMatch(/^The backend is unavailable/);
  });
});

describe("sendGrpc, a unary call", () => {
  // A server-streaming method called as unary: a stream of 0, 1 or 2 messages.
  const listPetsAsUnary = (client: ReturnType<typeof createGrpcClient>, count: number, deadlineMs = 2_000) =>
    sendGrpc(
      client,
      `/${PETSTORE_SERVICE}/ListPets`,
      { streaming: "unary", message: Uint8Array.from(count === 0 ? [] : [0x08, count]), maxMessages: 100 },
      new Metadata(),
      { deadlineMs, maxBytes: 64 * 1024 },
    );

  it("ends as grpc-js's own client does: no message is UNIMPLEMENTED, a second one is never read", async () => {
    const client = createGrpcClient(petstore.url, undefined, 64 * 1024);
    try {
      const none = await listPetsAsUnary(client, 0);
      expect(none).toMatchObject({
        kind: "response",
        response: { status: 501, grpc: { code: 12, details: "No message received", messages: [] } },
      });
      // Only one message is read: the call waits for its deadline (makeUnaryRequest's does too).
      expect(await listPetsAsUnary(client, 2, 300)).toEqual({ kind: "timeout", queued: false });
      const one = await listPetsAsUnary(client, 1);
      expect(one).toMatchObject({ kind: "response", response: { status: 200, grpc: { code: 0, details: "" } } });
      if (one.kind !== "response") throw new Error("no response");
      expect(one.response.grpc.messages).toHaveLength(1);
      // The response headers are passed on; an OK call's trailers (grpc-status) are not.
      expect(one.response.headers["content-type"]).toBe("application/grpc+proto");
      expect(one.response.headers).not.toHaveProperty("grpc-status");
    } finally {
      client.close();
    }
  });
});

describe("a gRPC tool in Discovery mode", () => {
  it("invoke_tool calls the named method and answers the response in proto3 JSON, as the tool itself does", async () => {
    const endpoint = petstore.url;
    const toolset = compileToolset(
      exposition({ operations: [petstoreOperation("GetPet")], mode: "Discovery", backendEndpoint: endpoint }),
    );
    const invoke = toolset.get("invoke_tool");
    if (!invoke) throw new Error("no invoke_tool");
    const name = petstoreOperation("GetPet").operationId;
    const planned = planCall(invoke, { name, arguments: { id: "7" } });
    if (!planned.request || !planned.runtime) throw new Error(JSON.stringify(planned.result));
    const plan = planFor(endpoint);
    const outcome = await backends.call(parseBackendEndpoint(endpoint), plan, planned.request, {}, { share: invoke });
    if (outcome.kind !== "response") throw new Error(outcome.kind);
    const result = planned.runtime.toResult(outcome.response, { maxBytes: 64 * 1024, forwardHeaders: [] });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(
      await call("GetPet", { id: "7" }).then((direct) => direct.structuredContent),
    );
  });
});

describe("a server-streaming gRPC tool", () => {
  it("collects the stream's messages into {messages, truncated}", async () => {
    const result = await call("ListPets", { count: 3 });
    expect(result.structuredContent).toEqual({
      messages: [1, 2, 3].map((id) => expect.objectContaining({ id: String(id) })),
      truncated: false,
    });
  });

  it("stops at the plan's limit and says so; a stream of exactly the limit is whole", async () => {
    const cut = await call("ListPets", { count: 50 }, { maxStreamMessages: 4 });
    expect(cut.structuredContent).toMatchObject({ truncated: true });
    expect((cut.structuredContent as { messages: unknown[] }).messages).toHaveLength(4);
    const exact = await call("ListPets", { count: 4 }, { maxStreamMessages: 4 });
    expect(exact.structuredContent).toMatchObject({ truncated: false });
  });

  it("answers an empty stream as no messages", async () => {
    expect((await call("ListPets", { count: 0 })).structuredContent).toEqual({ messages: [], truncated: false });
  });
});

describe("gRPC over TLS", () => {
  let dir: string;
  let secure: GrpcPetstore;
  let ca: string;
  let pki: TestPki;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "atrium-grpc-tls-"));
    pki = await createPki(dir, "grpc-test-ca");
    ca = pki.ca.cert;
    secure = await startGrpcPetstore(
      await pki.issue("pets", { usage: "serverAuth", names: ["IP:127.0.0.1", "DNS:pets.test"] }),
    );
  });
  afterAll(async () => {
    await secure?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const getPet = (tls: Parameters<typeof createGrpcClient>[1]) => {
    const client = createGrpcClient(secure.url, tls, 64 * 1024);
    const runtime = tool("GetPet");
    const planned = planCall(runtime, { id: "7" });
    if (!planned.request?.grpc) throw new Error("no gRPC request");
    const { grpc } = planned.request;
    return sendGrpc(client, planned.request.path, grpc, new Metadata(), {
      deadlineMs: 2_000,
      maxBytes: 64 * 1024,
    }).finally(() => client.close());
  };

  it("calls a grpcs:// backend whose certificate the given CA signed", async () => {
    const outcome = await getPet({ ca });
    expect(outcome.kind).toBe("response");
    if (outcome.kind === "response") expect(outcome.response.grpc.code).toBe(0);
  });

  it("verifies the given server name instead of the address's", async () => {
    const outcome = await getPet({ ca, serverName: "pets.test" });
    expect(outcome.kind === "response" && outcome.response.grpc.code).toBe(0);
    const wrong = await getPet({ ca, serverName: "other.test" });
    expect(wrong.kind).toBe("failed");
  });

  it("does not reach a backend whose certificate the system CAs do not trust", async () => {
    const outcome = await getPet(undefined);
    expect(outcome.kind).toBe("failed");
  });

  // Through Backends, as a tool call goes: the plan's backendTls, and each TLS failure named as an https backend's is.
  const noBreaker = { circuitBreaker: { ...circuitBreaker.parse(undefined), enabled: false } };
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  const getPetThrough = (endpoint: string, backendTls?: Plan["backendTls"]) =>
    call("GetPet", { id: "7" }, { endpoint, plan: { ...noBreaker, ...(backendTls ? { backendTls } : {}) } });

  it("calls through the plan's backendTls: its CA, and its server name verified", async () => {
    expect((await getPetThrough(secure.url, { caBundle: ca })).structuredContent).toEqual(rex);
    expect((await getPetThrough(secure.url, { caBundle: ca, serverName: "pets.test" })).structuredContent).toEqual(rex);
  });

  it("names the TLS failure of a grpcs backend: untrusted CA, wrong server name, expired certificate", async () => {
    const untrusted = await getPetThrough(secure.url);
    expect(untrusted.isError).toBe(true);
    expect(text(untrusted)).toMatch(
      /^The backend's TLS certificate \(for 127\.0\.0\.1\) is signed by a CA the plan does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\) \(correlation id [0-9a-f]{16}\)$/,
    );
    const misnamed = await getPetThrough(secure.url, { caBundle: ca, serverName: "other.test" });
    expect(text(misnamed)).toMatch(
      /^The backend's TLS certificate is not for other\.test: Host: other\.test\. is not in the cert's altnames/,
    );
    const expired = await startGrpcPetstore(
      await pki.issue("pets-expired", { usage: "serverAuth", names: ["IP:127.0.0.1"], expired: true }),
    );
    try {
      const outdated = await getPetThrough(expired.url, { caBundle: ca });
      expect(text(outdated)).toMatch(
        /^The backend's TLS certificate \(for 127\.0\.0\.1\) has expired \(CERT_HAS_EXPIRED\)/,
      );
    } finally {
      await expired.close();
    }
  });

  it("trusts Node's CA store without the plan's CAs, as an https backend does (NODE_EXTRA_CA_CERTS)", async () => {
    // NODE_EXTRA_CA_CERTS is read when Node starts; setDefaultCACertificates changes the same store.
    // grpc-js's own default would be GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, when set, instead.
    const system = getCACertificates("default");
    setDefaultCACertificates([...system, ca]);
    try {
      const outcome = await getPet(undefined);
      expect(outcome.kind === "response" && outcome.response.grpc.code).toBe(0);
    } finally {
      setDefaultCACertificates(system);
    }
  });

  it("still calls a grpcs backend nobody listens on unreachable", async () => {
    const port = await freePort();
    const result = await getPetThrough(`grpcs://127.0.0.1:${port}`, { caBundle: ca });
    expect(text(result)).toMatch(/^The backend is unreachable \(correlation id [0-9a-f]{16}\)$/);
  });
});

describe("GrpcChannels", () => {
  it("keeps one channel per backend and closes those no Exposition uses", () => {
    const channels = new GrpcChannels({ maxMessageBytes: 1024 });
    const a = channels.client("grpc://127.0.0.1:1");
    expect(channels.client("grpc://127.0.0.1:1")).toBe(a);
    channels.client("grpc://127.0.0.1:2");
    const secure = channels.client("grpcs://127.0.0.1:3", { serverName: "x.test" }, "plan-a");
    expect(channels.client("grpcs://127.0.0.1:3", { serverName: "x.test" }, "plan-a")).toBe(secure);
    // Rotated material replaces the plan's channel.
    expect(channels.client("grpcs://127.0.0.1:3", { serverName: "y.test" }, "plan-a")).not.toBe(secure);
    expect(channels.size).toBe(3);
    channels.closeUnused(new Set(["grpc://127.0.0.1:2"]));
    expect(channels.size).toBe(1);
    expect(channels.client("grpc://127.0.0.1:1")).not.toBe(a);
    channels.close();
    expect(channels.size).toBe(0);
  });

  it("refuses an origin that is not grpc:// or grpcs://", () => {
    expect(() => createGrpcClient("http://127.0.0.1:1", undefined, 1024)).toThrow(/grpc:\/\/host:port/);
  });
});

describe("closeUnusedChannels", () => {
  it("closes a backend's channel once no served Exposition calls it, after the change is applied", async () => {
    const registry = new ExpositionRegistry();
    const channels = new GrpcChannels({ maxMessageBytes: 1024 });
    closeUnusedChannels(registry, channels);
    const served = exposition({ operations: [petstoreOperation("GetPet")], backendEndpoint: petstore.url });
    registry.replaceAll([served]);
    channels.client(petstore.url);
    channels.client("grpc://127.0.0.1:1");
    await Promise.resolve();
    expect(channels.size).toBe(1);
    registry.replaceAll([]);
    await Promise.resolve();
    expect(channels.size).toBe(0);
  });
});

describe("methodCodec", () => {
  it("reads descriptors that lack json_name as protoc names the fields (lowerCamelCase)", () => {
    const set = fromBinary(FileDescriptorSetSchema, Buffer.from(PETSTORE_DESCRIPTOR_SET, "base64"));
    for (const file of set.file)
      for (const message of file.messageType) for (const field of message.field) field.jsonName = "";
    const bare = Buffer.from(toBinary(FileDescriptorSetSchema, set)).toString("base64");
    const operation = petstoreOperation("GetPet");
    if (!operation.grpc) throw new Error("no recipe");
    const codec = methodCodec({ ...operation.grpc, descriptorSet: bare }, new GrpcRegistries());
    expect(codec.encode({ id: "7" })).toEqual(new Uint8Array([8, 7]));
  });

  it("refuses a recipe its descriptors contradict", () => {
    const operation = petstoreOperation("ListPets");
    if (!operation.grpc) throw new Error("no recipe");
    const registries = new GrpcRegistries();
    expect(() => methodCodec({ ...operation.grpc, streaming: "unary" } as GrpcCall, registries)).toThrow(
      "petstore.v1.PetService/ListPets is server_streaming, not unary",
    );
    expect(() => methodCodec({ ...operation.grpc, method: "Missing" } as GrpcCall, registries)).toThrow(
      "service petstore.v1.PetService has no method Missing",
    );
    expect(() => methodCodec({ ...operation.grpc, requestType: "petstore.v1.Pet" } as GrpcCall, registries)).toThrow(
      "the method's request message is petstore.v1.ListPetsRequest, the recipe says petstore.v1.Pet",
    );
  });
});
