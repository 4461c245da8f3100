/**
 * The serving certificate: read from a mounted kubernetes.io/tls Secret (`tls.crt`, `tls.key`)
 * and followed as it is renewed.
 *
 * Kubernetes updates a mounted Secret by swapping a `..data` symlink, which fs.watch reports
 * unreliably (or not at all, on some filesystems), so the files are polled and compared by
 * content. A new pair is checked before use — key matches certificate, OpenSSL accepts both —
 * and a bad one (say, a half-written rotation) is reported once and the pair in use is kept.
 */
import { createHash, createPrivateKey, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createSecureContext } from "node:tls";
import { errors } from "./errors.ts";

export const CERT_FILE = "tls.crt";
export const KEY_FILE = "tls.key";

export interface TlsPair {
  cert: string;
  key: string;
  /** SHA-256 fingerprint of the certificate, as in X509Certificate.fingerprint256. */
  fingerprint256: string;
  serialNumber: string;
  /** notAfter. */
  validTo: Date;
}

async function readFiles(dir: string): Promise<{ cert: string; key: string }> {
  try {
    const [cert, key] = await Promise.all([
      readFile(join(dir, CERT_FILE), "utf8"),
      readFile(join(dir, KEY_FILE), "utf8"),
    ]);
    return { cert, key };
  } catch (error) {
    throw errors.tlsUnreadable(dir, (error as Error).message);
  }
}

/** Checks a PEM pair and describes its certificate; throws TLS_INVALID when it is not usable. */
export function checkTlsPair(dir: string, cert: string, key: string): TlsPair {
  try {
    const certificate = new X509Certificate(cert);
    if (!certificate.checkPrivateKey(createPrivateKey(key))) {
      throw new Error("the private key does not belong to the certificate");
    }
    // What the server will do with it: also catches what X509Certificate accepts but OpenSSL's TLS refuses.
    createSecureContext({ cert, key });
    return {
      cert,
      key,
      fingerprint256: certificate.fingerprint256,
      serialNumber: certificate.serialNumber,
      validTo: new Date(certificate.validTo),
    };
  } catch (error) {
    throw errors.tlsInvalid(dir, (error as Error).message);
  }
}

/** Reads and checks `tls.crt` / `tls.key` in `dir`. */
export async function readTlsPair(dir: string): Promise<TlsPair> {
  const { cert, key } = await readFiles(dir);
  return checkTlsPair(dir, cert, key);
}

export interface TlsWatchOptions {
  dir: string;
  intervalMs: number;
  /** The pair in use at start, so only a change is reported. */
  current: TlsPair;
  /** A new, valid pair to serve from now on. */
  onChange: (pair: TlsPair) => void;
  /** New content that is not a valid pair (or unreadable files); the current pair stays. */
  onError: (error: Error) => void;
}

export interface TlsWatch {
  /** Looks at the files now; resolves once a change (if any) has been reported. */
  check(): Promise<void>;
  stop(): void;
}

function digest(cert: string, key: string): string {
  return createHash("sha256").update(cert).update("\0").update(key).digest("hex");
}

/** Polls `dir` every `intervalMs` and reports each new content once. */
export function watchTlsPair(options: TlsWatchOptions): TlsWatch {
  let seen = digest(options.current.cert, options.current.key);
  let lastError: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function look(): Promise<void> {
    let files: { cert: string; key: string };
    try {
      files = await readFiles(options.dir);
    } catch (error) {
      // Report a missing file once, not on every poll.
      if ((error as Error).message !== lastError) options.onError(error as Error);
      lastError = (error as Error).message;
      return;
    }
    const now = digest(files.cert, files.key);
    if (now === seen) return;
    seen = now;
    lastError = undefined;
    let pair: TlsPair;
    try {
      pair = checkTlsPair(options.dir, files.cert, files.key);
    } catch (error) {
      options.onError(error as Error);
      return;
    }
    options.onChange(pair);
  }

  // Serialised: a poll and an explicit check() never read the files at the same time.
  function check(): Promise<void> {
    running = (running ?? Promise.resolve()).then(look, look);
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      check().finally(schedule);
    }, options.intervalMs);
    // The server keeps the process alive; the poller alone must not.
    timer.unref();
  }

  schedule();
  return {
    check,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
