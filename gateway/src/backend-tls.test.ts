/**
 * Backend TLS against a real HTTPS backend on 127.0.0.1 that requires a client certificate
 * (node:https, requestCert), with certificates made in the test by openssl: the right client
 * certificate is accepted; none, one from another CA or an expired one is refused with words
 * saying so; an untrusted, expired or mismatched server certificate says which check failed and
 * for which host; certificate files rotated the way kubelet does (an atomic `..data` symlink
 * swap) are used without restart, while a call in flight finishes on its old connection.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import type { Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CompiledExposition, ResolvedBackendTls } from "@atrium/contract";
import { createPki, freePort, type Pem, startMtlsBackend, type TestPki } from "@atrium/control-plane/testing";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Backends } from "./backend.ts";
import { backendTlsRefusal, CHECK_INTERVAL_MS } from "./backend-tls.ts";
import { parseBackendEndpoint } from "./tools/request.ts";

let dir: string;
let pki: TestPki;
let client: Pem;
let server: Server;
let port: number;
const logged: string[] = [];
const backends = new Backends({ maxBodyBytes: 4096 });
const warn = (fields: Record<string, unknown>, message: string) => {
  logged.push(JSON.stringify({ fields, message }));
};
backends.setLogger({ warn: warn as FastifyBaseLogger["warn"], info: () => {} });

/** OpenSSL's test server on 127.0.0.1, requiring a client certificate of `pki`'s CA: it sends an alert for one it refuses. */
async function openSslServer(serving: Pem): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const files = join(dir, `s-server-${port}`);
  await mkdir(files);
  for (const [name, text] of [
    ["server.crt", serving.cert],
    ["server.key", serving.key],
    ["ca.crt", pki.ca.cert],
  ] as const)
    await writeFile(join(files, name), text);
  // stdin stays open: s_server reads commands from it.
  const child = spawn(
    "openssl",
    [
      ...["s_server", "-accept", `127.0.0.1:${port}`, "-cert", "server.crt", "-key", "server.key", "-www"],
      ...["-CAfile", "ca.crt", "-Verify", "1", "-verify_return_error"],
    ],
    { cwd: files, stdio: ["pipe", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ACCEPT")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`openssl s_server exited (${code})`)));
  });
  return { port, stop: () => child.kill() };
}

/** An HTTPS backend that needs a client certificate of `pki`'s CA and answers with its CN and the SNI. */
const httpsBackend = (serving: Pem) => startMtlsBackend(serving, pki.ca.cert);

let planCount = 0;
async function call(tls: ResolvedBackendTls | undefined, path = "/", to = port) {
  const plan = { id: `plan-${++planCount}`, backendTimeoutMs: 5_000, backendTls: tls };
  return callPlan(plan as unknown as CompiledExposition["plan"], path, to);
}
async function callPlan(plan: CompiledExposition["plan"], path = "/", to = port) {
  const outcome = await backends.call(
    parseBackendEndpoint(`https://127.0.0.1:${to}`),
    plan,
    { method: "GET", path, headers: {} },
    {},
    { share: {} },
  );
  if (outcome.kind === "response") return JSON.parse(outcome.response.body.toString()) as Record<string, unknown>;
  return outcome.kind === "error" ? outcome.message : outcome.kind;
}
const value = (pem: string) => ({ source: "value" as const, value: pem });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-backend-tls-"));
  pki = await createPki(dir, "backend-ca");
  const serving = await pki.issue("backend", { usage: "serverAuth", names: ["DNS:backend.test", "IP:127.0.0.1"] });
  client = await pki.issue("gateway", { usage: "clientAuth" });
  ({ server, port } = await httpsBackend(serving));
}, 30_000);

afterAll(async () => {
  await backends.close();
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("backend TLS", () => {
  it("calls a backend that requires a client certificate with the plan's, verifying it with the plan's CA", async () => {
    const answer = await call({
      caBundle: pki.ca.cert,
      clientCertificate: value(client.cert),
      clientKey: value(client.key),
    });
    expect(answer).toEqual({ client: "gateway", sni: null });
    // The key never reaches the log.
    expect(logged.join("\n")).not.toContain("PRIVATE KEY");
  });

  it("sends the plan's server name as SNI and verifies the certificate against it", async () => {
    const tls = { caBundle: pki.ca.cert, clientCertificate: value(client.cert), clientKey: value(client.key) };
    expect(await call({ ...tls, serverName: "backend.test" })).toEqual({ client: "gateway", sni: "backend.test" });
    expect(await call({ ...tls, serverName: "other.test" })).toMatch(
      /^The backend's TLS certificate is not for other\.test: .*correlation id [0-9a-f]{16}\)$/,
    );
  });

  it("says the backend refused the client certificate when none, one of another CA or an expired one is sent", async () => {
    const other = await createPki(dir, "other-ca");
    const stranger = await other.issue("stranger", { usage: "clientAuth" });
    const expired = await pki.issue("expired-gateway", { usage: "clientAuth", expired: true });
    // TLS 1.3: the server's alert comes after the handshake, when undici only sees the connection close.
    expect(await call({ caBundle: pki.ca.cert })).toMatch(
      /^The backend \(127\.0\.0\.1\) refused the gateway's TLS client certificate: it requires one and none was sent \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\) \(correlation id [0-9a-f]{16}\)$/,
    );
    // Node's TLS server refuses a certificate it does not trust by closing, with no alert saying why.
    const closed =
      /^The backend \(127\.0\.0\.1\) closed the connection without answering, and without saying why: it may have refused the gateway's TLS client certificate/;
    for (const refused of [stranger, expired]) {
      expect(
        await call({ caBundle: pki.ca.cert, clientCertificate: value(refused.cert), clientKey: value(refused.key) }),
      ).toMatch(closed);
    }
  });

  it("says why, when the backend sends an alert for a client certificate it refuses (openssl s_server)", async () => {
    const other = await createPki(dir, "stranger-ca");
    const stranger = await other.issue("stranger", { usage: "clientAuth" });
    const serving = await pki.issue("s-server", { usage: "serverAuth", names: ["IP:127.0.0.1"] });
    const server = await openSslServer(serving);
    try {
      expect(
        await call(
          { caBundle: pki.ca.cert, clientCertificate: value(stranger.cert), clientKey: value(stranger.key) },
          "/",
          server.port,
        ),
      ).toMatch(
        /^The backend \(127\.0\.0\.1\) refused the gateway's TLS client certificate: it does not trust the CA that signed it \(ERR_SSL_TLSV1_ALERT_UNKNOWN_CA\)/,
      );
    } finally {
      server.stop();
    }
  });

  it("says which check of the backend's certificate failed, and for which host", async () => {
    const tls = { clientCertificate: value(client.cert), clientKey: value(client.key) };
    // The system CAs only: the test CA is not among them.
    expect(await call(tls)).toMatch(
      // The backend sends its CA along: OpenSSL then finds a self-signed certificate in the chain.
      /^The backend's TLS certificate \(for 127\.0\.0\.1\) chains to a CA the plan does not trust \(SELF_SIGNED_CERT_IN_CHAIN\)/,
    );
    // Another CA than the one that signed it.
    const other = await createPki(dir, "unrelated-ca");
    expect(await call({ ...tls, caBundle: other.ca.cert })).toMatch(/a CA the plan does not trust/);
    // Expired.
    const old = await httpsBackend(
      await pki.issue("expired-backend", { usage: "serverAuth", names: ["IP:127.0.0.1"], expired: true }),
    );
    try {
      expect(await call({ ...tls, caBundle: pki.ca.cert }, "/", old.port)).toMatch(
        /^The backend's TLS certificate \(for 127\.0\.0\.1\) has expired \(CERT_HAS_EXPIRED\)/,
      );
    } finally {
      old.server.close();
    }
  });

  it("uses rotated certificate files without restart; a call in flight finishes on its old connection", async () => {
    // Laid out as kubelet lays out a Secret volume: files are links through `..data`, swapped atomically.
    const volume = join(dir, "volume");
    const version = async (name: string, pem: Pem) => {
      await mkdir(join(volume, name), { recursive: true });
      await writeFile(join(volume, name, "tls.crt"), pem.cert);
      await writeFile(join(volume, name, "tls.key"), pem.key);
      await writeFile(join(volume, name, "ca.crt"), pki.ca.cert);
    };
    await version("..v1", client);
    await symlink("..v1", join(volume, "..data"));
    for (const file of ["tls.crt", "tls.key", "ca.crt"]) await symlink(join("..data", file), join(volume, file));
    const plan = {
      id: "rotating",
      backendTimeoutMs: 5_000,
      backendTls: {
        caFile: join(volume, "ca.crt"),
        clientCertificate: { source: "file", path: join(volume, "tls.crt") },
        clientKey: { source: "file", path: join(volume, "tls.key") },
      },
    } as unknown as CompiledExposition["plan"];
    expect(await callPlan(plan)).toMatchObject({ client: "gateway" });

    const slow = callPlan(plan, "/slow");
    await new Promise((resolve) => setTimeout(resolve, 200)); // its request is on the wire
    await version("..v2", await pki.issue("gateway-rotated", { usage: "clientAuth" }));
    await symlink("..v2", join(volume, "..data-new"));
    await rename(join(volume, "..data-new"), join(volume, "..data"));
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS + 100));

    expect(await callPlan(plan)).toMatchObject({ client: "gateway-rotated" });
    expect(await slow).toMatchObject({ client: "gateway" });
  });

  it("keeps the material that works while a rotation is half written (a certificate without its key)", async () => {
    const files = join(dir, "half");
    await mkdir(files);
    await writeFile(join(files, "tls.crt"), client.cert);
    await writeFile(join(files, "tls.key"), client.key);
    const plan = {
      id: "half-written",
      backendTimeoutMs: 5_000,
      backendTls: {
        caBundle: pki.ca.cert,
        clientCertificate: { source: "file", path: join(files, "tls.crt") },
        clientKey: { source: "file", path: join(files, "tls.key") },
      },
    } as unknown as CompiledExposition["plan"];
    expect(await callPlan(plan)).toMatchObject({ client: "gateway" });
    const next = await pki.issue("gateway-next", { usage: "clientAuth" });
    await writeFile(join(files, "tls.crt"), next.cert); // the key not yet
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS + 100));
    expect(await callPlan(plan)).toMatchObject({ client: "gateway" });
    await writeFile(join(files, "tls.key"), next.key);
    await new Promise((resolve) => setTimeout(resolve, CHECK_INTERVAL_MS + 100));
    expect(await callPlan(plan)).toMatchObject({ client: "gateway-next" });
  });

  it("fails a call with a clear message while a file the plan names cannot be read", async () => {
    const answer = await call({
      caBundle: pki.ca.cert,
      clientCertificate: { source: "file", path: join(dir, "missing.crt") },
      clientKey: value(client.key),
    });
    expect(answer).toMatch(
      /^The backend cannot be called: the gateway cannot read its backend TLS file \(backendTls\.clientCertificate\.file\) ENOENT/,
    );
  });
});

describe("backendTlsRefusal", () => {
  it("refuses files outside the allowed directories, and PEMs that do not parse, without quoting a key", () => {
    const dirs = ["/var/run/atrium/backend-tls"];
    expect(backendTlsRefusal({ caFile: "/var/run/atrium/backend-tls/spiffe/bundle.pem" }, dirs)).toBeUndefined();
    expect(backendTlsRefusal({ caFile: "/var/run/atrium/backend-tls-other/ca.pem" }, dirs)).toMatchObject({
      reason: "environment",
      message: expect.stringContaining("ATRIUM_GATEWAY_TLS_FILE_DIRS"),
    });
    expect(
      backendTlsRefusal({ caBundle: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" }, dirs),
    ).toMatchObject({ reason: "compile", message: expect.stringContaining("backendTls.caBundle: certificate 1") });
    const refusal = backendTlsRefusal(
      {
        clientCertificate: value(pki.ca.cert),
        clientKey: value("-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----"),
      },
      dirs,
    );
    expect(refusal?.message).toBe("its plan's backendTls.clientKey is not an unencrypted PEM private key");
  });
});
