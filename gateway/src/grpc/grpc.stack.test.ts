/**
 * gRPC backends end to end: a real `@grpc/grpc-js` server (grpc/testing.ts: unary, server-streaming,
 * failing and slow methods, and one echoing its metadata) whose `.proto` the control plane imports
 * (kind grpc, protoFiles), published by a plan with an API key and called through a gateway by the
 * official clients (v1 in a 2025-11-25 session, v2 pinned to 2026-07-28). The plan's backend
 * secret and header policy reach the server as metadata; its timeout is the call's deadline; its
 * grpc.maxStreamMessages cuts a stream. Both clients check each result against their schema of the
 * protocol, and structuredContent against the tool's outputSchema; every listed schema also
 * compiles in a strict Ajv2020. Over grpcs, to a server whose certificate a test CA signed for
 * pets.internal: a plan with that CA and server name calls it; one without the CA, or without the
 * name, gets an isError result naming the TLS check. A plan with an output filter on GetPet
 * (retain, then TOON) gets the kept members, valid against the outputSchema derived through it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPki, expose, useDuringTests } from "@atrium/control-plane/testing";
import { decode } from "@toon-format/toon";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { officialClients, type Stack, useStack, waitFor, withClient } from "../testing.ts";
import { PETSTORE_PROTO, petOfId, startGrpcPetstore } from "./testing.ts";

const BACKEND_KEY = "grpc-backend-key-81d2";
const TIMEOUT_MS = 400;
const MAX_STREAM_MESSAGES = 5;

let url: string;
let apiKey: string;
let gateway: Gateway;
/** The tool names the import gave, by method. */
let names: Record<string, string>;

const backend = useDuringTests(
  () => startGrpcPetstore(),
  (started) => started.close(),
);
/** The petstore over TLS, its certificate of a test CA and for pets.internal only (not the address). */
const secureBackend = useDuringTests(
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "atrium-grpc-stack-tls-"));
    const pki = await createPki(dir, "grpc-stack-ca");
    const serving = await pki.issue("pets", { usage: "serverAuth", names: ["DNS:pets.internal"] });
    return { dir, ca: pki.ca.cert, server: await startGrpcPetstore(serving) };
  },
  async ({ dir, server }) => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  },
);
/** The endpoint and API key of the plan filtering GetPet's answer. */
const filtered = { url: "", apiKey: "" };
/** The endpoint and API key of each plan on the TLS petstore, by how it trusts it. */
const secure: Record<"trusted" | "untrusted" | "misnamed", { url: string; apiKey: string }> = {
  trusted: { url: "", apiKey: "" },
  untrusted: { url: "", apiKey: "" },
  misnamed: { url: "", apiKey: "" },
};
useStack(async (stack: Stack) => {
  const admin = stack.controlPlane.admin;
  const secret = await admin.call("POST", "/api/v1/secrets", { name: "grpc-key", value: BACKEND_KEY });
  const exposed = await expose(admin, "pets-grpc", {
    groupId: stack.groupId,
    service: { kind: "grpc", openapi: { protoFiles: [{ path: "petstore/v1/pets.proto", content: PETSTORE_PROTO }] } },
    plan: {
      backendEndpoint: backend().url,
      apiKey: true,
      backendTimeoutMs: TIMEOUT_MS,
      backendSecret: { secretId: secret.body.id, in: "header", name: "X-Backend-Key" },
      headerPolicy: { setRequestHeaders: { "X-Caller": "atrium" } },
      grpc: { maxStreamMessages: MAX_STREAM_MESSAGES },
    },
  });
  const service = await admin.call("GET", `/api/v1/services/${exposed.serviceId}`);
  const operations = service.body.operations as { operationId: string; path: string }[];
  const getPetName = operations.find((operation) => operation.path.endsWith("/GetPet"))?.operationId ?? "";
  const filteredPlan = await expose(admin, "pets-grpc-filtered", {
    groupId: stack.groupId,
    serviceId: exposed.serviceId,
    plan: {
      backendEndpoint: backend().url,
      apiKey: true,
      backendSecret: { secretId: secret.body.id, in: "header", name: "X-Backend-Key" },
      headerPolicy: { setRequestHeaders: { "X-Caller": "atrium" } },
      toolOutputFilters: { [getPetName]: { retain: ["/name", "/labels/color"], format: "toon" } },
    },
  });
  filtered.apiKey = filteredPlan.apiKey ?? "";
  const { ca, server } = secureBackend();
  const overTls = {
    trusted: { caBundle: ca, serverName: "pets.internal" },
    untrusted: undefined,
    misnamed: { caBundle: ca },
  };
  const secureIds: Partial<Record<keyof typeof secure, string>> = {};
  for (const [name, backendTls] of Object.entries(overTls) as [keyof typeof secure, object | undefined][]) {
    const plan = {
      backendEndpoint: server.url,
      apiKey: true,
      backendTimeoutMs: 2_000,
      ...(backendTls && { backendTls }),
    };
    const tls = await expose(admin, `pets-grpcs-${name}`, {
      groupId: stack.groupId,
      serviceId: exposed.serviceId,
      plan,
    });
    secureIds[name] = tls.expositionId;
    secure[name].apiKey = tls.apiKey ?? "";
  }
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(exposed.expositionId) !== undefined, "the pets exposition served");
  for (const [name, id = ""] of Object.entries(secureIds) as [keyof typeof secure, string][]) {
    await waitFor(() => gateway.registry.byId(id) !== undefined, `the ${name} grpcs exposition served`);
    secure[name].url = `${gateway.url}/mcp/${id}`;
  }
  await waitFor(() => gateway.registry.byId(filteredPlan.expositionId) !== undefined, "the filtered exposition");
  filtered.url = `${gateway.url}/mcp/${filteredPlan.expositionId}`;
  url = `${gateway.url}/mcp/${exposed.expositionId}`;
  apiKey = exposed.apiKey ?? "";
  const served = gateway.registry.byId(exposed.expositionId);
  names = Object.fromEntries(
    served?.exposition.service.operations.map((operation) => [operation.grpc?.method, operation.operationId]) ?? [],
  );
});

const clients = officialClients(() => ({ url, apiKey }));

const rex = petOfId(7);

describe.each(clients)("gRPC tools with the official client ($era)", ({ connect }) => {
  it("lists a tool per unary and server-streaming method, every schema compiling in a strict Ajv2020", async () => {
    await withClient(connect, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(Object.values(names).sort());
      expect(tools).toHaveLength(4);
      for (const tool of tools) {
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          if (!schema) continue;
          const ajv = new Ajv2020();
          ajvFormats.default(ajv);
          expect(() => ajv.compile(schema), `${tool.name}: ${JSON.stringify(schema)}`).not.toThrow();
        }
      }
    });
  });

  it("calls a unary method: the response message in proto3 JSON is structuredContent and text", async () => {
    await withClient(connect, async (client) => {
      const one = await client.callTool({ name: names.GetPet ?? "", arguments: { id: "7" } });
      expect(one.isError).toBeFalsy();
      expect(one.structuredContent).toEqual(rex);
      expect(one.content).toEqual([{ type: "text", text: JSON.stringify(rex) }]);
      expect(one._meta).toMatchObject({ "dev.atrium/grpcStatus": "OK", "dev.atrium/backendStatus": 200 });
    });
  });

  it("collects a stream into {messages, truncated}, cut at the plan's limit", async () => {
    await withClient(connect, async (client) => {
      const whole = await client.callTool({ name: names.ListPets ?? "", arguments: { count: 2 } });
      expect(whole.structuredContent).toMatchObject({ messages: [{ id: "1" }, { id: "2" }], truncated: false });
      const cut = await client.callTool({ name: names.ListPets ?? "", arguments: { count: 40 } });
      expect(cut.structuredContent).toMatchObject({ truncated: true });
      expect((cut.structuredContent as { messages: unknown[] }).messages).toHaveLength(MAX_STREAM_MESSAGES);
    });
  });

  it("answers a status as a tool error with its name, and the deadline as the gateway's 504", async () => {
    await withClient(connect, async (client) => {
      const missing = await client.callTool({ name: names.GetPet ?? "", arguments: { id: "404" } });
      expect(missing).toMatchObject({ isError: true, content: [{ type: "text", text: "NOT_FOUND: no pet 404" }] });
      const slow = await client.callTool({ name: names.Slow ?? "", arguments: { millis: 2_000 } });
      expect(slow).toMatchObject({
        isError: true,
        content: [
          { type: "text", text: `HTTP 504 Gateway Timeout\nThe backend did not answer within ${TIMEOUT_MS} ms.` },
        ],
      });
    });
  });

  it("refuses invalid arguments before calling", async () => {
    await withClient(connect, async (client) => {
      const invalid = await client.callTool({ name: names.GetPet ?? "", arguments: { id: "seven" } });
      expect(invalid.isError).toBe(true);
      expect(JSON.stringify(invalid.content)).toContain("Invalid arguments");
    });
  });
});

describe.each(officialClients(() => filtered))(
  "a filtered gRPC tool with the official client ($era)",
  ({ connect }) => {
    it("returns what retain keeps, TOON in the text, valid against the outputSchema derived through the filter", async () => {
      await withClient(connect, async (client) => {
        const tool = (await client.listTools()).tools.find((listed) => listed.name === names.GetPet);
        expect(Object.keys(tool?.outputSchema?.properties ?? {}).sort()).toEqual(["labels", "name"]);
        const one = await client.callTool({ name: names.GetPet ?? "", arguments: { id: "7" } });
        const kept = { name: "Rex", labels: { color: "brown" } };
        expect(one.isError).toBeFalsy();
        expect(one.structuredContent).toEqual(kept);
        const [text] = one.content as { type: string; text: string }[];
        expect(decode(text?.text ?? "")).toEqual(kept);
        expect(new Ajv2020().validate(tool?.outputSchema ?? {}, one.structuredContent)).toBe(true);
      });
    });
  },
);

const eras = officialClients(() => secure.trusted).map(({ era }, index) => ({ era, index }));

describe.each(eras)("a grpcs backend with the official client ($era)", ({ index }) => {
  const getPet = async (plan: keyof typeof secure) => {
    const connect = officialClients(() => secure[plan])[index]?.connect;
    if (!connect) throw new Error(`no client ${index}`);
    let result: Record<string, unknown> | undefined;
    await withClient(connect, async (client) => {
      result = await client.callTool({ name: names.GetPet ?? "", arguments: { id: "7" } });
    });
    return result;
  };

  it("calls it through the plan's backendTls: the test CA trusted, the certificate's name verified", async () => {
    const trusted = await getPet("trusted");
    expect(trusted?.isError).toBeFalsy();
    expect(trusted?.structuredContent).toEqual(rex);
  });

  it("answers an isError result naming the TLS check without the plan's CA, or for another name", async () => {
    expect(await getPet("untrusted")).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: expect.stringMatching(
            /^The backend's TLS certificate \(for 127\.0\.0\.1\) is signed by a CA the plan does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
          ),
        },
      ],
    });
    expect(await getPet("misnamed")).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: expect.stringMatching(/^The backend's TLS certificate is not for 127\.0\.0\.1: /) },
      ],
    });
  });
});

describe("the gRPC server", () => {
  it("got the backend secret and the header policy as metadata, never the client's API key", async () => {
    const calls = backend().received;
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.metadata).toMatchObject({ "x-backend-key": BACKEND_KEY, "x-caller": "atrium" });
      expect(call.metadata["x-atrium-key"]).toBeUndefined();
    }
  });
});
