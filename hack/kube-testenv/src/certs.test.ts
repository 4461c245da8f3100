/**
 * The test CA's certificates as openssl reads them back: client certificates carry the user as CN
 * and each group as O (how Kubernetes reads them), serving certificates carry the SANs asked for,
 * and both verify against the CA for their purpose.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa, type TestCa } from "./certs.ts";

const run = promisify(execFile);

async function text(cert: string): Promise<string> {
  return (await run("openssl", ["x509", "-in", cert, "-noout", "-text", "-nameopt", "RFC2253"])).stdout;
}

async function verify(ca: TestCa, cert: string, purpose: "sslclient" | "sslserver"): Promise<string> {
  return (await run("openssl", ["verify", "-CAfile", ca.caCert, "-purpose", purpose, cert])).stdout;
}

describe("test CA", () => {
  let dir: string;
  let ca: TestCa;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "atrium-certs-test-"));
    ca = await createTestCa(dir);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("issues client certificates with the user as CN and each group as O", async () => {
    const { cert } = await ca.issueClientCert("node", "system:node:n1", ["system:nodes", "extra"]);
    const printed = await text(cert);
    expect(printed).toContain("Subject: CN=system:node:n1,O=extra,O=system:nodes");
    expect(printed).toContain("TLS Web Client Authentication");
    expect(printed).not.toContain("Subject Alternative Name");
    expect(await verify(ca, cert, "sslclient")).toContain(": OK");
    await expect(verify(ca, cert, "sslserver")).rejects.toThrow();
  });

  it("issues serving certificates for the names asked, localhost by default", async () => {
    const custom = await ca.issueServingCert("custom", "kube-apiserver", ["IP:10.96.0.1", "DNS:kubernetes.default"]);
    const printed = await text(custom.cert);
    expect(printed).toContain("IP Address:10.96.0.1, DNS:kubernetes.default");
    expect(printed).toContain("TLS Web Server Authentication");
    expect(await verify(ca, custom.cert, "sslserver")).toContain(": OK");
    expect(await text((await ca.issueServingCert("default")).cert)).toContain("IP Address:127.0.0.1, DNS:localhost");
  });
});
