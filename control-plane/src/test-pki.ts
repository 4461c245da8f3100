/**
 * A throwaway PKI for the backend TLS tests, made with the `openssl` CLI: CAs, serving and client
 * certificates with chosen names and validity (an expired one too, which `openssl ca` can date in
 * the past), as PEM text; and an HTTPS backend on 127.0.0.1 that requires a client certificate.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";

const run = promisify(execFile);

// Our own config, not the system's openssl.cnf: `openssl ca` needs a database, and the defaults differ by distribution.
const CONFIG = `[ca]
default_ca = test
[test]
database = index.txt
serial = serial.txt
new_certs_dir = .
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[any]
commonName = supplied
[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[ca_cert]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
`;

export interface Pem {
  cert: string;
  key: string;
}

export interface TestPki {
  ca: Pem;
  /** A leaf signed by this CA: `usage` serverAuth or clientAuth; `names` SAN entries (`DNS:x`, `IP:127.0.0.1`). */
  issue(
    name: string,
    options: { usage: "serverAuth" | "clientAuth"; names?: string[]; expired?: boolean },
  ): Promise<Pem>;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  try {
    await run("openssl", args, { cwd: dir });
  } catch (error) {
    throw new Error(`openssl ${args[0]} failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
}

/** A CA named `name` in `dir/name` (created): EC P-256 keys, certificates valid two days. */
export async function createPki(dir: string, name: string): Promise<TestPki> {
  const home = join(dir, name);
  await mkdir(home, { recursive: true });
  await Promise.all([
    writeFile(join(home, "openssl.cnf"), CONFIG),
    writeFile(join(home, "index.txt"), ""),
    writeFile(join(home, "serial.txt"), "01\n"),
  ]);
  const key = (file: string) => ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", file];
  await openssl(home, [
    ...["req", "-config", "openssl.cnf", "-x509", ...key("ca.key"), "-subj", `/CN=${name}`],
    ...["-days", "2", "-extensions", "ca_cert", "-out", "ca.crt"],
  ]);
  const pem = async (base: string): Promise<Pem> => ({
    cert: await readFile(join(home, `${base}.crt`), "utf8"),
    key: await readFile(join(home, `${base}.key`), "utf8"),
  });
  // `openssl ca` signs one at a time (it keeps a database).
  let queue = Promise.resolve();
  return {
    ca: await pem("ca"),
    issue(leaf, { usage, names = [], expired = false }) {
      const issued = queue.then(async () => {
        const extensions = [
          "[leaf]",
          "basicConstraints = critical,CA:false",
          "keyUsage = critical,digitalSignature",
          `extendedKeyUsage = ${usage}`,
          ...(names.length > 0 ? [`subjectAltName = ${names.join(",")}`] : []),
          "",
        ].join("\n");
        await writeFile(join(home, `${leaf}.ext`), extensions);
        await openssl(home, [
          ...["req", "-config", "openssl.cnf", "-new", ...key(`${leaf}.key`), "-subj", `/CN=${leaf}`],
          ...["-out", `${leaf}.csr`],
        ]);
        const validity = expired ? ["-startdate", "20200101000000Z", "-enddate", "20200102000000Z"] : ["-days", "2"];
        await openssl(home, [
          ...["ca", "-batch", "-config", "openssl.cnf", "-cert", "ca.crt", "-keyfile", "ca.key", "-notext"],
          ...["-in", `${leaf}.csr`, "-out", `${leaf}.crt`, "-extfile", `${leaf}.ext`, "-extensions", "leaf"],
          ...validity,
        ]);
        return pem(leaf);
      });
      queue = issued.then(
        () => undefined,
        () => undefined,
      );
      return issued;
    },
  };
}

/**
 * An HTTPS backend on 127.0.0.1 serving `serving`, that requires a client certificate signed by
 * `ca` and answers any path with JSON naming the client certificate's CN and the SNI it got;
 * `/slow` answers after 1.5 s.
 */
export async function startMtlsBackend(
  serving: Pem,
  ca: string,
): Promise<{ server: Server; port: number; url: string }> {
  const server = createServer({ ...serving, ca, requestCert: true, rejectUnauthorized: true }, (request, response) => {
    const socket = request.socket as TLSSocket;
    const answer = () =>
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ client: socket.getPeerCertificate().subject?.CN, sni: socket.servername || null }));
    if (request.url === "/slow") setTimeout(answer, 1_500);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, url: `https://127.0.0.1:${port}` };
}
