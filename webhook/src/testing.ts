/**
 * Test helpers (used by the tests only, not exported by the package): a throwaway CA made with the
 * `openssl` CLI that issues serving certificates for 127.0.0.1, and a folder laid out like a
 * mounted Kubernetes Secret, updated the way the kubelet does it (a `..data` symlink swap).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connect } from "node:tls";
import { promisify } from "node:util";
import { CERT_FILE, KEY_FILE } from "./tls.ts";

const run = promisify(execFile);

// Our own config rather than the system openssl.cnf, whose defaults differ between distributions.
const OPENSSL_CONFIG = `[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[test_ca]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[serving]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1,DNS:localhost
authorityKeyIdentifier = keyid
`;

async function openssl(args: string[]): Promise<void> {
  try {
    await run("openssl", args);
  } catch (error) {
    throw new Error(`openssl ${args[0]} failed: ${(error as { stderr?: string }).stderr || String(error)}`);
  }
}

export interface PemPair {
  cert: string;
  key: string;
}

export interface TestCa {
  caPem: string;
  /** A new key and a certificate for IP:127.0.0.1 / DNS:localhost, with a random serial. */
  issueServingCert(): Promise<PemPair>;
}

/** Makes a CA in `dir` (which must exist); EC P-256 keys, valid two days. */
export async function createTestCa(dir: string): Promise<TestCa> {
  const config = join(dir, "openssl.cnf");
  const caKey = join(dir, "ca.key");
  const caCert = join(dir, "ca.crt");
  await writeFile(config, OPENSSL_CONFIG);
  const ecKey = (path: string) =>
    openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path]);
  await ecKey(caKey);
  await openssl([
    ...["req", "-config", config, "-x509", "-new", "-key", caKey, "-subj", "/CN=atrium-webhook-test-ca"],
    ...["-days", "2", "-extensions", "test_ca", "-out", caCert],
  ]);
  let issued = 0;
  return {
    caPem: await readFile(caCert, "utf8"),
    async issueServingCert() {
      const base = join(dir, `serving-${++issued}`);
      await ecKey(`${base}.key`);
      // CSR then `x509 -req` (not `req -CA`, which is OpenSSL 3 only) so LibreSSL on macOS works too.
      await openssl([
        "req",
        "-config",
        config,
        "-new",
        "-key",
        `${base}.key`,
        "-subj",
        "/CN=atrium-webhook",
        "-out",
        `${base}.csr`,
      ]);
      await openssl([
        ...["x509", "-req", "-in", `${base}.csr`, "-CA", caCert, "-CAkey", caKey, "-days", "2"],
        ...["-set_serial", `0x${randomBytes(16).toString("hex")}`],
        ...["-extfile", config, "-extensions", "serving", "-out", `${base}.crt`],
      ]);
      return { cert: await readFile(`${base}.crt`, "utf8"), key: await readFile(`${base}.key`, "utf8") };
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
