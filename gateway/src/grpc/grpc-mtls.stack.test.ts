/**
 * Mutual TLS to a gRPC backend end to end: a real control plane and gateway, and a `@grpc/grpc-js`
 * pet store over grpcs that requires a client certificate of the test CA. A plan whose certificate
 * and key are stored secrets calls it; a plan without a client certificate gets an isError result
 * at once (HTTP 200, never a 5xx nor a hang); a plan with files on the gateway, laid out as a
 * Kubernetes Secret volume (`tls.crt` → `..data/tls.crt`), uses a certificate rotated by kubelet's
 * atomic `..data` symlink swap, and then one replaced by renames, without restart. No key reaches
 * the gateway's log.
 */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createPki, expose, type Pem } from "@atrium/control-plane/testing";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_INTERVAL_MS } from "../backend-tls.ts";
import { type Gateway, startGateway } from "../gateway.ts";
import { modernRequest, type Stack, startStack, waitFor } from "../testing.ts";
import { type GrpcPetstore, PETSTORE_PROTO, startGrpcPetstore } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;
let backend: GrpcPetstore;
let dir: string;
let client: Pem;
let getPet = "";
const log: string[] = [];
const ids: Record<"stored" | "files" | "none", { id: string; apiKey: string }> = {
  stored: { id: "", apiKey: "" },
  files: { id: "", apiKey: "" },
  none: { id: "", apiKey: "" },
};
let issue: (name: string) => Promise<Pem>;
/** The "files" plan's Secret volume, as kubelet mounts one. */
let volume: string;
let generation = 0;

/** Writes `pem` into a new timestamped folder and points `..data` at it in one rename, as kubelet's atomic writer does. */
async function swapData(pem: Pem): Promise<void> {
  generation += 1;
  const folder = `..2026_11_29_00_00_0${generation}.000000000`;
  await mkdir(join(volume, folder));
  await writeFile(join(volume, folder, "tls.crt"), pem.cert);
  await writeFile(join(volume, folder, "tls.key"), pem.key);
  await symlink(folder, join(volume, "..data_tmp"));
  await rename(join(volume, "..data_tmp"), join(volume, "..data"));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-grpc-mtls-"));
  const pki = await createPki(dir, "grpc-mtls-ca");
  const serving = await pki.issue("pets", { usage: "serverAuth", names: ["IP:127.0.0.1"] });
  client = await pki.issue("gateway", { usage: "clientAuth" });
  issue = (name) => pki.issue(name, { usage: "clientAuth" });
  backend = await startGrpcPetstore(serving, pki.ca.cert);
  volume = join(dir, "gateway-files");
  await mkdir(volume);
  await swapData(client);
  for (const name of ["tls.crt", "tls.key"]) await symlink(join("..data", name), join(volume, name));

  stack = await startStack();
  const admin = stack.controlPlane.admin;
  const secret = async (name: string, value: string) =>
    (await admin.call("POST", "/api/v1/secrets", { name, value })).body.id as string;
  const tlsOf = {
    stored: {
      caBundle: pki.ca.cert,
      clientCertificate: { secretId: await secret("pets-cert", client.cert) },
      clientKey: { secretId: await secret("pets-key", client.key) },
    },
    files: {
      caBundle: pki.ca.cert,
      clientCertificate: { file: join(volume, "tls.crt") },
      clientKey: { file: join(volume, "tls.key") },
    },
    none: { caBundle: pki.ca.cert },
  };
  let serviceId: string | undefined;
  for (const [name, backendTls] of Object.entries(tlsOf) as [keyof typeof ids, object][]) {
    const exposed = await expose(admin, `pets-mtls-${name}`, {
      groupId: stack.groupId,
      ...(serviceId
        ? { serviceId }
        : {
            service: {
              kind: "grpc",
              openapi: { protoFiles: [{ path: "petstore/v1/pets.proto", content: PETSTORE_PROTO }] },
            },
          }),
      plan: { backendEndpoint: backend.url, apiKey: true, backendTimeoutMs: 5_000, backendTls },
    });
    serviceId = exposed.serviceId;
    ids[name] = { id: exposed.expositionId, apiKey: exposed.apiKey ?? "" };
  }
  const logStream = new PassThrough();
  logStream.on("data", (chunk: Buffer) => log.push(chunk.toString("utf8")));
  gateway = await startGateway(stack.gatewayConfig({ tlsFileDirs: [volume], logLevel: "info" }), { logStream });
  await waitFor(() => Object.values(ids).every(({ id }) => gateway.registry.byId(id)), "the grpcs expositions served");
  const served = gateway.registry.byId(ids.stored.id);
  getPet = served?.exposition.service.operations.find((op) => op.grpc?.method === "GetPet")?.operationId ?? "";
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await backend?.close();
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A tools/call of GetPet on a plan: its HTTP status, isError and text, and the certificate the server saw. */
async function callGetPet(plan: keyof typeof ids) {
  const heard = backend.received.length;
  const response = await request(
    `${gateway.url}/mcp/${ids[plan].id}`,
    modernRequest(
      "tools/call",
      { name: getPet, arguments: { id: "7" } },
      { headers: { "x-atrium-key": ids[plan].apiKey } },
    ),
  );
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer read field by field
  const body = (await response.body.json()) as any;
  return {
    status: response.statusCode,
    isError: body.result?.isError === true,
    text: String(body.result?.content?.[0]?.text ?? JSON.stringify(body)),
    presented: backend.received.slice(heard).map((call) => call.clientCertificate),
  };
}

describe("a grpcs backend requiring a client certificate", () => {
  it("is called with the plan's client certificate and key from stored secrets", async () => {
    const answer = await callGetPet("stored");
    expect(answer).toMatchObject({ status: 200, isError: false });
    expect(JSON.parse(answer.text)).toMatchObject({ id: "7" });
    expect(answer.presented).toEqual(["gateway"]);
  });

  it("answers a plan without a client certificate with an isError result at once, never a hang", async () => {
    const started = performance.now();
    const answer = await callGetPet("none");
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(answer.status).toBe(200);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/\(correlation id [0-9a-f]{16}\)$/);
    expect(answer.text).toMatch(/^The backend \(127\.0\.0\.1\) refused the gateway's TLS client certificate: /);
    expect(answer.presented).toEqual([]);
  });

  it("uses a certificate rotated on disk without restart: kubelet's ..data swap, then renames", async () => {
    expect((await callGetPet("files")).presented).toEqual(["gateway"]);
    await swapData(await issue("gateway-swapped"));
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS + 100));
    expect(await callGetPet("files")).toMatchObject({ isError: false, presented: ["gateway-swapped"] });

    const renamed = await issue("gateway-renamed");
    const current = join(volume, "..data");
    await writeFile(join(current, "tls.key.new"), renamed.key);
    await writeFile(join(current, "tls.crt.new"), renamed.cert);
    await rename(join(current, "tls.key.new"), join(current, "tls.key"));
    await rename(join(current, "tls.crt.new"), join(current, "tls.crt"));
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS + 100));
    expect(await callGetPet("files")).toMatchObject({ isError: false, presented: ["gateway-renamed"] });
  });

  it("never logs a key", () => {
    expect(log.join("")).not.toContain("PRIVATE KEY");
    expect(log.join("")).not.toContain(client.key.split("\n")[1]);
  });
});
