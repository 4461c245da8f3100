/**
 * Test PKI made with the `openssl` CLI: a throwaway CA, a kube-apiserver serving certificate it
 * signs (SAN IP:127.0.0.1, DNS:localhost) and the service-account signing key. Clients verify TLS
 * against the CA instead of skipping verification, so the tests exercise the real TLS path.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Paths of the generated files (PEM), plus the CA certificate's text. */
export interface TestCerts {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  /** Signs service-account tokens (--service-account-signing-key-file). */
  serviceAccountKey: string;
  /** Verifies them (--service-account-key-file): kube-apiserver reads no PKCS#8 private key there. */
  serviceAccountPublicKey: string;
  caPem: string;
}

// Our own config instead of the system openssl.cnf, whose defaults (v3_ca on every -x509) differ
// between distributions and would turn the serving certificate into a CA.
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
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw new Error(`openssl ${args[0]} failed: ${stderr || String(error)}`);
  }
}

// EC P-256 keys: generated in milliseconds, and accepted by kube-apiserver for TLS and ES256 tokens.
async function ecKey(path: string): Promise<void> {
  await openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path]);
}

/** Writes the test PKI into `dir` (which must exist). */
export async function makeCerts(dir: string): Promise<TestCerts> {
  const file = (name: string) => join(dir, name);
  const config = file("openssl.cnf");
  await writeFile(config, OPENSSL_CONFIG);
  const certs: TestCerts = {
    caCert: file("ca.crt"),
    caKey: file("ca.key"),
    // kube-apiserver's --cert-dir looks for exactly these names.
    servingCert: file("apiserver.crt"),
    servingKey: file("apiserver.key"),
    serviceAccountKey: file("service-account.key"),
    serviceAccountPublicKey: file("service-account.pub"),
    caPem: "",
  };
  await Promise.all([ecKey(certs.caKey), ecKey(certs.servingKey), ecKey(certs.serviceAccountKey)]);
  await openssl(["pkey", "-in", certs.serviceAccountKey, "-pubout", "-out", certs.serviceAccountPublicKey]);
  await openssl([
    "req",
    "-config",
    config,
    "-x509",
    "-new",
    "-key",
    certs.caKey,
    "-subj",
    "/CN=atrium-kube-testenv-ca",
    "-days",
    "2",
    "-extensions",
    "test_ca",
    "-out",
    certs.caCert,
  ]);
  // CSR then `x509 -req` (not `req -CA`, which is OpenSSL 3 only) so LibreSSL on macOS works too.
  const csr = file("apiserver.csr");
  await openssl([
    "req",
    "-config",
    config,
    "-new",
    "-key",
    certs.servingKey,
    "-subj",
    "/CN=kube-apiserver",
    "-out",
    csr,
  ]);
  await openssl([
    "x509",
    "-req",
    "-in",
    csr,
    "-CA",
    certs.caCert,
    "-CAkey",
    certs.caKey,
    "-set_serial",
    `0x${randomBytes(16).toString("hex")}`,
    "-days",
    "2",
    "-extfile",
    config,
    "-extensions",
    "serving",
    "-out",
    certs.servingCert,
  ]);
  certs.caPem = await readFile(certs.caCert, "utf8");
  return certs;
}
