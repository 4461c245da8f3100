/**
 * Test helpers (used by the tests only, not exported by the package): a throwaway CA made with the
 * `openssl` CLI that issues serving certificates for 127.0.0.1, and a folder laid out like a
 * mounted Kubernetes Secret, updated the way the kubelet does it (a `..data` symlink swap).
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connect } from "node:tls";
import { createTestCa as createKubeTestCa } from "@atrium/kube-testenv";
import { CERT_FILE, KEY_FILE } from "./tls.ts";

export interface PemPair {
  cert: string;
  key: string;
}

export interface TestCa {
  caPem: string;
  /** A new key and a certificate for IP:127.0.0.1 / DNS:localhost, with a random serial. */
  issueServingCert(): Promise<PemPair>;
}

/** A CA in `dir` (which must exist), from the test cluster's PKI helper; certificates as PEM text. */
export async function createTestCa(dir: string): Promise<TestCa> {
  const ca = await createKubeTestCa(dir, "atrium-webhook-test-ca");
  let issued = 0;
  return {
    caPem: ca.caPem,
    async issueServingCert() {
      const files = await ca.issueServingCert(`serving-${++issued}`, "atrium-webhook");
      return { cert: await readFile(files.cert, "utf8"), key: await readFile(files.key, "utf8") };
    },
  };
}

/**
 * Writes `pair` into `dir` as the kubelet writes a Secret volume: the files in a fresh timestamped
 * folder, `..data` pointing at it (replaced atomically by a rename), and `tls.crt` / `tls.key`
 * symlinks through `..data`.
 */
export async function writeSecretVolume(dir: string, pair: PemPair): Promise<void> {
  await mkdir(dir, { recursive: true });
  const version = `..${new Date().toISOString().replaceAll(":", "_")}.${randomBytes(4).toString("hex")}`;
  await mkdir(join(dir, version));
  await writeFile(join(dir, version, CERT_FILE), pair.cert);
  await writeFile(join(dir, version, KEY_FILE), pair.key, { mode: 0o600 });
  await rm(join(dir, "..data_tmp"), { force: true });
  await symlink(version, join(dir, "..data_tmp"));
  await rename(join(dir, "..data_tmp"), join(dir, "..data"));
  for (const file of [CERT_FILE, KEY_FILE]) {
    await symlink(join("..data", file), join(dir, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
}

/** The SHA-256 fingerprint of the certificate 127.0.0.1:`port` serves, verified against `ca`. */
export function servedFingerprint(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ca }, () => {
      const fingerprint = socket.getPeerX509Certificate()?.fingerprint256;
      socket.end();
      if (fingerprint) resolve(fingerprint);
      else reject(new Error("no peer certificate"));
    });
    socket.on("error", reject);
  });
}
