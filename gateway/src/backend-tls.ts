/**
 * TLS to a plan's backend (`plan.backendTls`): the CAs trusted, the client certificate presented
 * and the server name verified and sent as SNI. Each plan's settings get a BackendTls holding
 * the material and its own undici Pools, one per backend origin, so no connection made with one
 * plan's client certificate is ever used for another plan.
 *
 * Files (`caFile`, `file` of the client certificate and key) are read again when they change:
 * before a call, at most once per CHECK_INTERVAL_MS, their stat (following symlinks, so the atomic
 * `..data` swap of kubelet and cert-manager's Secret volumes shows too) is compared with the last
 * one. New material gets new pools; the old pools close once their calls in flight are answered.
 * A half-written rotation (a certificate without its new key) fails to load and the old material
 * stays in use until the next check finds the pair complete.
 *
 * A call whose TLS handshake fails gets words saying which check failed and for which host
 * (`tlsFailure`, @atrium/contract/tls-failure): an expired, untrusted or mismatched certificate,
 * or a client certificate the backend refused; never a bare "unreachable".
 */
import { createHash, createPrivateKey, X509Certificate } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { Socket } from "node:net";
import { isAbsolute, normalize, sep } from "node:path";
import * as tls from "node:tls";
import type { ResolvedBackendTls } from "@atrium/contract";
import { tlsFailure } from "@atrium/contract/tls-failure";
import { buildConnector, Pool } from "undici";

/** How often, at most, a plan's TLS files are checked for a change (before a call). */
export const CHECK_INTERVAL_MS = 1_000;

/** Where plans may name files when ATRIUM_GATEWAY_TLS_FILE_DIRS is unset or empty. */
export const DEFAULT_TLS_FILE_DIRS = ["/var/run/atrium/backend-tls"];

/** ATRIUM_GATEWAY_TLS_FILE_DIRS as a list of absolute directories; the default when unset or empty. */
export function tlsFileDirs(raw: string | undefined): string[] {
  const dirs = (raw ?? "")
    .split(",")
    .map((dir) => dir.trim())
    .filter(Boolean);
  for (const dir of dirs) {
    if (!isAbsolute(dir)) throw new Error(`ATRIUM_GATEWAY_TLS_FILE_DIRS: '${dir}' is not an absolute directory`);
  }
  return dirs.length ? dirs.map((dir) => normalize(dir)) : DEFAULT_TLS_FILE_DIRS;
}

/** Why a plan's backend TLS cannot be used on this gateway, or undefined when it can. */
export interface TlsRefusal {
  reason: "environment" | "compile";
  message: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Each certificate of a PEM bundle, parsed; throws naming `what` when one does not parse or there is none. */
function certificates(pem: string, what: string): string[] {
  const found = pem.match(PEM_CERTIFICATE) ?? [];
  if (found.length === 0) throw new Error(`${what} holds no PEM certificate`);
  for (const [index, block] of found.entries()) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new Error(`${what}: certificate ${index + 1} does not parse (${(error as Error).message})`);
    }
  }
  return found;
}

/**
 * Checked when an Exposition arrives: its files must lie under the allowed directories, and the
 * PEMs it carries must parse (a value never changes; a file may still be on its way, so it is
 * checked at each load).
 */
export function backendTlsRefusal(settings: ResolvedBackendTls | undefined, dirs: string[]): TlsRefusal | undefined {
  if (!settings) return undefined;
  for (const [field, path] of filesOf(settings)) {
    const normalized = normalize(path);
    if (!dirs.some((dir) => normalized.startsWith(dir.endsWith(sep) ? dir : dir + sep))) {
      return {
        reason: "environment",
        message:
          `its plan's backendTls.${field} names ${path}, outside the directories this gateway reads TLS files from ` +
          `(${dirs.join(", ")}); its operator can add a directory to ATRIUM_GATEWAY_TLS_FILE_DIRS`,
      };
    }
  }
  try {
    if (settings.caBundle !== undefined) certificates(settings.caBundle, "backendTls.caBundle");
    if (settings.clientCertificate?.source === "value")
      certificates(settings.clientCertificate.value ?? "", "backendTls.clientCertificate");
    if (settings.clientKey?.source === "value") {
      try {
        createPrivateKey(settings.clientKey.value ?? "");
      } catch {
        // The parser's message may quote the input: only say what is wrong.
        throw new Error("backendTls.clientKey is not an unencrypted PEM private key");
      }
    }
  } catch (error) {
    return { reason: "compile", message: `its plan's ${(error as Error).message}` };
  }
  return undefined;
}

function filesOf(settings: ResolvedBackendTls): [string, string][] {
  const files: [string, string][] = [];
  if (settings.caFile !== undefined) files.push(["caFile", settings.caFile]);
  if (settings.clientCertificate?.source === "file")
    files.push(["clientCertificate.file", settings.clientCertificate.path ?? ""]);
  if (settings.clientKey?.source === "file") files.push(["clientKey.file", settings.clientKey.path ?? ""]);
  return files;
}

/** The CAs the system trusts: Node's bundled ones plus NODE_EXTRA_CA_CERTS (and the OS store with --use-system-ca). */
function systemCAs(): string[] {
  // Node before 22.15 has only the bundled list.
  return typeof tls.getCACertificates === "function" ? tls.getCACertificates("default") : [...tls.rootCertificates];
}

type Material = { ca?: string[]; cert?: string; key?: string };

/** Pool settings shared with the plans without TLS settings (backend.ts). */
export interface PoolSettings {
  connections: number;
  keepAliveTimeout: number;
}

export class BackendTls {
  /** The settings this was built from, as JSON: a plan whose settings change gets a new BackendTls. */
  readonly json: string;
  private readonly settings: ResolvedBackendTls;
  private readonly files: [string, string][];
  private readonly poolSettings: PoolSettings;
  private pools = new Map<string, Pool>();
  private material: Material | undefined;
  /** Why the material cannot be loaded now (for the client); undefined when it is loaded. */
  private failure: string | undefined;
  /** The files' stat when last loaded. */
  private stamp = "";
  /** SHA-256 of the material last loaded: a file touched without change keeps its pools. */
  private digest = "";
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | undefined;
  /**
   * TLS alerts the backend sent, by the local port of their connection. With TLS 1.3 a server
   * refuses a client certificate after the handshake: undici then reports only that the other side
   * closed, and the alert saying why is found here (`explain`).
   */
  private readonly alerts = new Map<number, Error>();
  closed = false;

  constructor(settings: ResolvedBackendTls, json: string, poolSettings: PoolSettings) {
    this.settings = settings;
    this.json = json;
    this.poolSettings = poolSettings;
    this.files = filesOf(settings);
    if (this.files.length === 0) this.load(new Map());
  }

  /** The name the backend's certificate is checked against, and sent as SNI: the plan's, or the origin's host. */
  serverName(origin: string): string {
    return this.settings.serverName ?? new URL(origin).hostname;
  }

  /** Up to date (files checked when due): undefined when calls can be made, else why not, in words for the client. */
  async ready(now = performance.now()): Promise<string | undefined> {
    if (this.files.length > 0 && now - this.checkedAt >= CHECK_INTERVAL_MS) {
      this.checking ??= this.check(now).finally(() => {
        this.checking = undefined;
      });
      await this.checking;
    }
    return this.failure;
  }

  /**
   * The material now loaded, in the shape gRPC channels take (`{ ca, cert, key, serverName }`),
   * for calls over HTTP/2 that cannot use the undici pools; call after `ready` said it can be used.
   * A rotation gives other values, hence another channel.
   */
  channelOptions(): { ca?: string; cert?: string; key?: string; serverName?: string } {
    const material = this.material ?? {};
    return {
      ...(material.ca ? { ca: material.ca.join("\n") } : {}),
      ...(material.cert !== undefined ? { cert: material.cert, key: material.key } : {}),
      ...(this.settings.serverName ? { serverName: this.settings.serverName } : {}),
    };
  }

  /** This material's pool for `origin` (call after `ready` said it can be used). */
  pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      const material = this.material ?? {};
      const servername = this.settings.serverName;
      const connector = buildConnector({ ...material, rejectUnauthorized: true });
      pool = new Pool(origin, {
        ...this.poolSettings,
        pipelining: 1,
        connect: (options, callback) =>
          // The plan's server name wins over any the request would derive (such as from a Host header).
          connector(servername ? { ...options, servername } : options, (error, socket) => {
            if (error || !socket) return callback(error ?? new Error("no socket"), null);
            this.keepAlerts(socket);
            callback(null, socket);
          }),
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /**
   * What a failed call's error says about TLS, in words for the client (see `tlsFailure`): the
   * alert behind undici's "other side closed" when the backend sent one. A backend that closes the
   * connection without an alert or an answer while a client certificate is presented (Node's own
   * TLS servers do so for a certificate they refuse) gets a hint that it may have refused it.
   */
  explain(error: Error & { code?: string }, host: string, answered: boolean): string | undefined {
    const port = (error as { socket?: { localPort?: number } }).socket?.localPort;
    const alert = port === undefined ? undefined : this.alerts.get(port);
    if (alert && port !== undefined) this.alerts.delete(port);
    const words = tlsFailure(alert ?? error, host);
    if (words !== undefined || answered || error.code !== "UND_ERR_SOCKET" || this.material?.cert === undefined)
      return words;
    return (
      `The backend (${host}) closed the connection without answering, and without saying why: it may have ` +
      "refused the gateway's TLS client certificate (expired, or signed by a CA it does not trust)"
    );
  }

  private keepAlerts(socket: Socket): void {
    socket.on("error", (error: Error & { code?: string }) => {
      const port = socket.localPort;
      if (!error.code?.startsWith("ERR_SSL_") || port === undefined) return;
      // Bounded: alerts nobody asked for (the call had timed out) are dropped in bulk.
      if (this.alerts.size >= 256) this.alerts.clear();
      this.alerts.set(port, error);
    });
  }

  /** Closes the pools once their calls in flight are answered. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools = new Map();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  private async check(now: number): Promise<void> {
    this.checkedAt = now;
    const contents = new Map<string, string>();
    try {
      const stats = await Promise.all(this.files.map(([, path]) => stat(path)));
      const stamp = stats.map((s) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`).join(" ");
      if (stamp === this.stamp && this.failure === undefined) return;
      const read = await Promise.all(this.files.map(([, path]) => readFile(path, "utf8")));
      this.files.forEach(([field], index) => {
        contents.set(field, read[index] as string);
      });
      this.stamp = stamp;
    } catch (error) {
      const field = this.files.find(([, path]) => (error as { path?: string }).path === path)?.[0];
      this.unusable(
        `the gateway cannot read its backend TLS file ${field ? `(backendTls.${field}) ` : ""}` +
          `${(error as { code?: string }).code ?? "error"}`,
      );
      return;
    }
    this.load(contents);
  }

  /** Builds the material from the settings' values and the files' `contents`; keeps the old material on failure. */
  private load(contents: Map<string, string>): void {
    const settings = this.settings;
    const pem = (field: string, value: { source: string; value?: string } | undefined) =>
      value === undefined ? undefined : value.source === "value" ? value.value : contents.get(field);
    const material: Material = {};
    try {
      const bundle = settings.caBundle ?? contents.get("caFile");
      if (bundle !== undefined) {
        const own = certificates(bundle, settings.caBundle !== undefined ? "backendTls.caBundle" : "the caFile");
        material.ca = settings.trustSystemCAs ? [...systemCAs(), ...own] : own;
      }
      const cert = pem("clientCertificate.file", settings.clientCertificate);
      const key = pem("clientKey.file", settings.clientKey);
      if (cert !== undefined && key !== undefined) {
        certificates(cert, "the client certificate");
        material.cert = cert;
        material.key = key;
      }
      // Refuses a key that is not the certificate's (a rotation half written), without quoting either.
      tls.createSecureContext(material);
    } catch (error) {
      const message = (error as Error).message;
      this.unusable(
        /key values mismatch/i.test(message)
          ? "the backend TLS client certificate and key do not belong together (a rotation half done?)"
          : /certificate/.test(message)
            ? `the backend TLS settings are unusable: ${message}`
            : "the backend TLS client key is not an unencrypted PEM private key",
      );
      return;
    }
    const digest = createHash("sha256")
      .update(JSON.stringify([material.ca ?? [], material.cert ?? "", material.key ?? ""]))
      .digest("hex");
    this.failure = undefined;
    if (digest === this.digest) return;
    this.digest = digest;
    this.material = material;
    // New connections use the new material; calls in flight finish on the old pools' connections.
    const old = [...this.pools.values()];
    this.pools = new Map();
    for (const pool of old) pool.close().catch(() => undefined);
  }

  /** Material that cannot be loaded: calls fail with `failure` unless an earlier material is still good. */
  private unusable(failure: string): void {
    // A rotation caught half-way keeps the material that worked; the next check tries again.
    if (this.material === undefined) this.failure = failure;
    this.stamp = "";
  }
}

/** The BackendTls of each plan, replaced (the old one closing gracefully) when its settings change. */
export class BackendTlsSet {
  private readonly byPlan = new Map<string, BackendTls>();
  /** Settings objects already matched: the hot path compares by identity, not by JSON. */
  private readonly seen = new WeakMap<object, BackendTls>();
  private readonly poolSettings: PoolSettings;

  constructor(poolSettings: PoolSettings) {
    this.poolSettings = poolSettings;
  }

  of(planId: string, settings: ResolvedBackendTls): BackendTls {
    const known = this.seen.get(settings);
    if (known && !known.closed) return known;
    const json = JSON.stringify(settings);
    let current = this.byPlan.get(planId);
    if (current?.json !== json) {
      current?.close().catch(() => undefined);
      current = new BackendTls(settings, json, this.poolSettings);
      this.byPlan.set(planId, current);
    }
    this.seen.set(settings, current);
    return current;
  }

  async close(): Promise<void> {
    const all = [...this.byPlan.values()];
    this.byPlan.clear();
    await Promise.all(all.map((one) => one.close()));
  }
}
