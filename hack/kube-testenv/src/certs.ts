/**
 * Test PKI made with the `openssl` CLI: a throwaway CA, the serving certificates it signs (by
 * default SAN IP:127.0.0.1, DNS:localhost), client certificates (CN = user, O = groups, as
 * Kubernetes reads them) and the service-account signing key. Clients verify TLS against the CA
 * instead of skipping verification, so the tests exercise the real TLS path.
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
`;

const LOCAL_NAMES = ["IP:127.0.0.1", "DNS:localhost"];

// One leaf section per certificate (written beside it): the SANs differ between certificates.
function leafExtensions(usage: "serverAuth" | "clientAuth", altNames: string[]): string {
  return [
    "[leaf]",
    "basicConstraints = critical,CA:false",
    "keyUsage = critical,digitalSignature",
    `extendedKeyUsage = ${usage}`,
    ...(altNames.length > 0 ? [`subjectAltName = ${altNames.join(",")}`] : []),
    "authorityKeyIdentifier = keyid",
    "",
  ].join("\n");
}

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

export interface PemFiles {
  cert: string;
  key: string;
}

export interface TestCa {
  caCert: string;
  caKey: string;
  caPem: string;
  /**
   * A new key and a serving certificate with a random serial, as files in the CA's folder. The
   * names are SAN entries in openssl's syntax (`IP:10.0.0.1`, `DNS:kubernetes`); by default
   * IP:127.0.0.1 and DNS:localhost.
   */
  issueServingCert(name: string, commonName?: string, altNames?: string[]): Promise<PemFiles>;
  /** A new key and a client certificate: Kubernetes takes the CN as user name and each O as a group. */
  issueClientCert(name: string, user: string, groups?: string[]): Promise<PemFiles>;
}

/** A throwaway CA in `dir` (which must exist): EC P-256 keys, valid two days. */
export async function createTestCa(dir: string, commonName = "atrium-test-ca"): Promise<TestCa> {
  const config = join(dir, "openssl.cnf");
  const caKey = join(dir, "ca.key");
  const caCert = join(dir, "ca.crt");
  await writeFile(config, OPENSSL_CONFIG);
  await ecKey(caKey);
  await openssl([
    ...["req", "-config", config, "-x509", "-new", "-key", caKey, "-subj", `/CN=${commonName}`],
    ...["-days", "2", "-extensions", "test_ca", "-out", caCert],
  ]);
  return {
    caCert,
    caKey,
    caPem: await readFile(caCert, "utf8"),
    issueServingCert(name, commonName = name, altNames = LOCAL_NAMES) {
      return issue(name, `/CN=${commonName}`, leafExtensions("serverAuth", altNames));
    },
    issueClientCert(name, user, groups = []) {
      const subject = [...groups.map((group) => `/O=${group}`), `/CN=${user}`].join("");
      return issue(name, subject, leafExtensions("clientAuth", []));
    },
  };

  async function issue(name: string, subject: string, extensions: string): Promise<PemFiles> {
    const cert = join(dir, `${name}.crt`);
    const key = join(dir, `${name}.key`);
    const csr = join(dir, `${name}.csr`);
    const extfile = join(dir, `${name}.ext`);
    await Promise.all([ecKey(key), writeFile(extfile, extensions)]);
    // CSR then `x509 -req` (not `req -CA`, which is OpenSSL 3 only) so LibreSSL on macOS works too.
    await openssl(["req", "-config", config, "-new", "-key", key, "-subj", subject, "-out", csr]);
    await openssl([
      ...["x509", "-req", "-in", csr, "-CA", caCert, "-CAkey", caKey, "-days", "2"],
      ...["-set_serial", `0x${randomBytes(16).toString("hex")}`],
      ...["-extfile", extfile, "-extensions", "leaf", "-out", cert],
    ]);
    return { cert, key };
  }
}

/**
 * Writes the test PKI into `dir` (which must exist). `apiserverAltNames` replaces the serving
 * certificate's default SANs (IP:127.0.0.1, DNS:localhost); `ca` issues further certificates.
 */
export async function makeCerts(dir: string, apiserverAltNames = LOCAL_NAMES): Promise<TestCerts & { ca: TestCa }> {
  const file = (name: string) => join(dir, name);
  const serviceAccountKey = file("service-account.key");
  const serviceAccountPublicKey = file("service-account.pub");
  const [ca] = await Promise.all([createTestCa(dir, "atrium-kube-testenv-ca"), ecKey(serviceAccountKey)]);
  await openssl(["pkey", "-in", serviceAccountKey, "-pubout", "-out", serviceAccountPublicKey]);
  // kube-apiserver's --cert-dir looks for exactly these names.
  const serving = await ca.issueServingCert("apiserver", "kube-apiserver", apiserverAltNames);
  return {
    ca,
    caCert: ca.caCert,
    caKey: ca.caKey,
    servingCert: serving.cert,
    servingKey: serving.key,
    serviceAccountKey,
    serviceAccountPublicKey,
    caPem: ca.caPem,
  };
}
