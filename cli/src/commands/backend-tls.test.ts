/**
 * `atrium config create` with TLS to the backend, against a real control plane: a local CA file
 * read and stored on the plan, a client certificate and key from stored secrets, the server name;
 * `config get` shows where each part comes from and never a PEM; what the flags cannot mean
 * together is refused before any request.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stack } from "@atrium/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliStack, fails, json, ok, runAtrium, withCliStack } from "../testing.ts";

let stack: Stack;
let newEnv: CliStack["newEnv"];
const atrium = withCliStack((cli) => ({ stack, newEnv } = cli));

const CA = `-----BEGIN CERTIFICATE-----
MIIBsDCCAVegAwIBAgIURCTNbfnYe6+YVGkfOS6CD2GaHBkwCgYIKoZIzj0EAwIw
JjEkMCIGA1UEAwwbT3JkZXJzIEludGVybmFsIENBIChzYW1wbGUpMB4XDTI2MTEy
NDExMjgzNVoXDTM2MTEyMTExMjgzNVowJjEkMCIGA1UEAwwbT3JkZXJzIEludGVy
bmFsIENBIChzYW1wbGUpMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEJ0qOWbJ9
hCS1r5mQowovGxaLEoh3CScsMYj38CXeZXygoUQ0A+g9NsxuocY6pDQkno880tv9
IXZl4w7Ak3d9p6NjMGEwHQYDVR0OBBYEFORso9q/4Xmukw1Kwu9n/4zadAqYMB8G
A1UdIwQYMBaAFORso9q/4Xmukw1Kwu9n/4zadAqYMA8GA1UdEwEB/wQFMAMBAf8w
DgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMCA0cAMEQCICGKz5duKCi1+ln2ANCE
Oh5FCF4YoIEqeJeDwJcVWxxbAiATUzY1k6T97EeXztz2BOcoRjyZWLXIJ2eJ38T0
K1iJVw==
-----END CERTIFICATE-----
`;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-cli-tls-"));
  await writeFile(join(dir, "ca.crt"), CA);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("config create --backend-ca-file, --backend-client-cert, --backend-client-key", () => {
  it("stores the CA on the plan and names the certificate's and key's secrets, never showing a key", async () => {
    const secret = async (name: string, value: string) =>
      json(await atrium(["secret", "create", name, "--value-stdin", "-o", "json"], value)).id as string;
    const certificate = await secret("orders-client-cert", CA);
    const key = await secret(
      "orders-client-key",
      "-----BEGIN PRIVATE KEY-----\nnot-shown\n-----END PRIVATE KEY-----\n",
    );
    const args = ["config", "create", "orders-mtls", "--serviceId", stack.serviceId];
    const created = json(
      await atrium([
        ...args,
        "--backendEndpoint",
        "https://orders.example.com/api",
        "--backend-ca-file",
        join(dir, "ca.crt"),
        "--backend-client-cert",
        certificate,
        "--backend-client-key",
        key,
        "--backend-server-name",
        "orders.internal",
        "-o",
        "json",
      ]),
    );
    expect(created.backendTls).toEqual({
      caBundle: CA,
      clientCertificate: { secretId: certificate },
      clientKey: { secretId: key },
      serverName: "orders.internal",
    });
    const shown = ok(await atrium(["config", "get", created.id])).stdout;
    expect(shown).toContain(
      `trusts the plan's 1 CA certificate(s); client certificate from secret ${certificate}, key from secret ${key}; ` +
        "server name orders.internal",
    );
    expect(shown).not.toContain("BEGIN");
  });

  it("refuses flags that cannot go together, before any request", async () => {
    const loggedOut = newEnv();
    const create = (flags: string[]) =>
      runAtrium(
        [
          "config",
          "create",
          "x",
          "--serviceId",
          stack.serviceId,
          "--backendEndpoint",
          "https://b.example.com",
          ...flags,
        ],
        { env: loggedOut },
      );
    fails(await create(["--backend-client-cert", "a"]), 2, "a client certificate and its key go together");
    fails(
      await create(["--backend-trust-system-cas"]),
      2,
      "--backend-trust-system-cas needs --backend-ca-file <pem> or --backend-ca-path <gateway_path>",
    );
    fails(
      await create(["--backend-ca-file", join(dir, "ca.crt"), "--backend-ca-path", "/var/run/atrium/backend-tls/ca"]),
      2,
      "--backend-ca-file and --backend-ca-path cannot be used together",
    );
    fails(
      await create(["--backend-client-key", "a", "--backend-client-key-path", "/k", "--backend-client-cert", "c"]),
      2,
      "--backend-client-key and --backend-client-key-path cannot be used together",
    );
    fails(
      await create(["--backend-ca-file", join(dir, "missing.crt")]),
      2,
      `--backend-ca-file: cannot read ${join(dir, "missing.crt")} (ENOENT)`,
    );
  });
});
