/**
 * Backend TLS end to end: a real control plane and gateway, an HTTPS backend on 127.0.0.1 that
 * requires a client certificate. A plan whose certificate and key are stored secrets calls it; one
 * with files on the gateway does too and uses a rotated certificate without restart; a plan
 * without a client certificate gets an isError tool result saying the backend refused it (HTTP
 * 200, never a 5xx); a plan naming a file outside the allowed directories is not served and the
 * refusal reaches the control plane. No key reaches the gateway's log.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createPki, type Pem, startMtlsBackend } from "@atrium/control-plane/testing";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_INTERVAL_MS } from "./backend-tls.ts";
import { type Gateway, startGateway } from "./gateway.ts";
import { modernRequest, type Stack, startStack, waitFor } from "./testing.ts";

const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Orders", version: "1" },
  paths: { "/whoami": { get: { operationId: "whoami", responses: { "200": { description: "who called" } } } } },
});

let stack: Stack;
let gateway: Gateway;
let backend: { server: Server; url: string };
let dir: string;
let client: Pem;
const log: string[] = [];
const ids: Record<"stored" | "files" | "none" | "outside", string> = { stored: "", files: "", none: "", outside: "" };
/** Issues a new client certificate of the test CA. */
let issue: (name: string) => Promise<Pem>;
/** Where the "files" plan's certificate, key and CA are, on the gateway. */
let tlsDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-backend-tls-stack-"));
  const pki = await createPki(dir, "orders-ca");
  const serving = await pki.issue("orders", { usage: "serverAuth", names: ["DNS:orders.internal", "IP:127.0.0.1"] });
  client = await pki.issue("gateway", { usage: "clientAuth" });
  backend = await startMtlsBackend(serving, pki.ca.cert);
  issue = (name) => pki.issue(name, { usage: "clientAuth" });
  tlsDir = join(dir, "gateway-files");
  await mkdir(tlsDir);
  await writeFile(join(tlsDir, "ca.crt"), pki.ca.cert);
  await writeFile(join(tlsDir, "tls.crt"), client.cert);
  await writeFile(join(tlsDir, "tls.key"), client.key);

  stack = await startStack();
  const admin = stack.controlPlane.admin;
  const secret = async (name: string, value: string) =>
    (await admin.call("POST", "/api/v1/secrets", { name, value })).body.id as string;
  const [certificateId, keyId] = [await secret("orders-cert", client.cert), await secret("orders-key", client.key)];
  const publish = async (name: keyof typeof ids, backendTls: Record<string, unknown>) => {
    const exposed = await stack.expose(name, {
      openapi: OPENAPI,
      plan: { backendEndpoint: backend.url, backendTimeoutMs: 5_000, backendTls },
    });
    ids[name] = exposed.expositionId;
  };
  await publish("stored", {
    caBundle: pki.ca.cert,
    clientCertificate: { secretId: certificateId },
    clientKey: { secretId: keyId },
    serverName: "orders.internal",
  });
  await publish("files", {
    caFile: join(tlsDir, "ca.crt"),
    clientCertificate: { file: join(tlsDir, "tls.crt") },
    clientKey: { file: join(tlsDir, "tls.key") },
  });
  await publish("none", { caBundle: pki.ca.cert });
  await publish("outside", { caFile: "/etc/ssl/certs/ca-certificates.crt" });
  const logStream = new PassThrough();
  logStream.on("data", (chunk: Buffer) => log.push(chunk.toString("utf8")));
  gateway = await startGateway(stack.gatewayConfig({ tlsFileDirs: [tlsDir], logLevel: "info" }), { logStream });
  await waitFor(
    () =>
      gateway.registry.byId(ids.stored) !== undefined &&
      gateway.registry.byId(ids.files) !== undefined &&
      gateway.registry.byId(ids.none) !== undefined &&
      gateway.registry.refusals().length > 0,
    "the expositions served, and the one naming an outside file refused",
  );
}, 60_000);

/** Replaces the certificate and key files by renames, as cert-manager's csi driver and spiffe-helper write them. */
async function rotate(next: Pem): Promise<void> {
  await writeFile(join(tlsDir, "tls.key.new"), next.key);
  await writeFile(join(tlsDir, "tls.crt.new"), next.cert);
  await rename(join(tlsDir, "tls.key.new"), join(tlsDir, "tls.key"));
  await rename(join(tlsDir, "tls.crt.new"), join(tlsDir, "tls.crt"));
}

afterAll(async () => {
  await gateway?.close();
  backend?.server.close();
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A tools/call of `whoami` on an Exposition: its HTTP status, isError and text. */
async function whoami(exposition: keyof typeof ids) {
  const response = await request(
    `${gateway.url}/mcp/${ids[exposition]}`,
    modernRequest("tools/call", { name: "whoami", arguments: {} }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer read field by field
  const body = (await response.body.json()) as any;
  return { status: response.statusCode, isError: body.result?.isError === true, text: body.result?.content?.[0]?.text };
}

describe("backend TLS through the gateway", () => {
  it("calls the backend with the client certificate of a stored secret, verifying the plan's server name", async () => {
    const answer = await whoami("stored");
    expect(answer).toMatchObject({ status: 200, isError: false });
    expect(JSON.parse(answer.text)).toEqual({ client: "gateway", sni: "orders.internal" });
  });

  it("answers a plan without a client certificate with an isError result saying the backend refused it", async () => {
    const answer = await whoami("none");
    expect(answer.status).toBe(200);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^The backend \(127\.0\.0\.1\) refused the gateway's TLS client certificate: /);
  });

  it("calls with files on the gateway, and uses a rotated certificate without restart", async () => {
    expect(JSON.parse((await whoami("files")).text)).toMatchObject({ client: "gateway" });
    await rotate(await issue("gateway-rotated"));
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS + 100));
    expect(JSON.parse((await whoami("files")).text)).toMatchObject({ client: "gateway-rotated" });
  });

  it("does not serve a plan naming a file outside the allowed directories, and reports why", async () => {
    expect(gateway.registry.byId(ids.outside)).toBeUndefined();
    const refusal = gateway.registry.refusals().find((one) => one.expositionId === ids.outside);
    expect(refusal).toMatchObject({ reason: "environment" });
    expect(refusal?.message).toContain("backendTls.caFile names /etc/ssl/certs/ca-certificates.crt");
    await waitFor(async () => {
      const exposition = await stack.controlPlane.admin.call("GET", `/api/v1/expositions/${ids.outside}`);
      return (exposition.body.problems ?? []).length > 0;
    }, "the refusal reported to the control plane");
  });

  it("never logs a key", () => {
    expect(log.join("")).not.toContain("PRIVATE KEY");
    expect(log.join("")).not.toContain(client.key.split("\n")[1]);
  });
});
