/**
 * gRPC channels to backends, pooled like the HTTP pools: one `@grpc/grpc-js` client per backend
 * (`grpc://host:port` over h2c, `grpcs://host:port` over TLS; per plan with TLS settings of its own), whose HTTP/2
 * connection multiplexes every call of every tool and Exposition on that backend. A channel no
 * served Exposition uses any more is closed (`closeUnused`, after each configuration change); its
 * calls still in flight finish.
 *
 * TLS trusts the system CAs unless `ca` is given, which then is the only trust; `cert` and `key`
 * are the client certificate (mutual TLS) and `serverName` the name verified and sent as SNI
 * (the endpoint's host when absent). A connection whose TLS handshake fails is explained as an
 * https backend's is (`grpcTlsFailure`).
 */
import { createHash } from "node:crypto";
import { createSecureContext } from "node:tls";
import { tlsFailure, tlsHandshakeError } from "@atrium/contract/tls-failure";
import { ChannelCredentials, Client, type ClientOptions } from "@grpc/grpc-js";

export type GrpcTlsOptions = {
  /** PEM CA certificates trusted instead of the system CAs. */
  ca?: string | Buffer;
  /** PEM client certificate (its chain after it) and its private key, for mutual TLS. */
  cert?: string | Buffer;
  key?: string | Buffer;
  serverName?: string;
};

/** A backend's gRPC origin: `grpc://host:port` (h2c) or `grpcs://host:port` (TLS). */
export type GrpcOrigin = string;

const grpcOrigin = /^(grpcs?):\/\/([^/?#]+)$/;

export function isGrpcOrigin(origin: string): boolean {
  return grpcOrigin.test(origin);
}

/** How long a channel keeps an unused connection before letting it go (grpc-js's default is 30 minutes). */
const IDLE_TIMEOUT_MS = 5 * 60_000;

export class GrpcChannels {
  private readonly clients = new Map<string, { origin: GrpcOrigin; fingerprint: string; client: Client }>();
  private readonly maxMessageBytes: number;

  /** `maxMessageBytes`: the largest message received (and sent) on any channel. */
  constructor(options: { maxMessageBytes: number }) {
    this.maxMessageBytes = options.maxMessageBytes;
  }

  /**
   * The pooled client of `origin`, made on first use. With `tls` (grpcs only), the channel is
   * `owner`'s (a plan's: its client certificate is its own); new material for that owner (a
   * rotated certificate) replaces its channel, whose calls in flight finish.
   */
  client(origin: GrpcOrigin, tls?: GrpcTlsOptions, owner = ""): Client {
    const secure = tls !== undefined && origin.startsWith("grpcs:");
    const key = secure ? `${origin} ${owner}` : origin;
    const fingerprint = secure ? tlsFingerprint(tls) : "";
    const entry = this.clients.get(key);
    if (entry?.fingerprint === fingerprint) return entry.client;
    entry?.client.close();
    const client = createGrpcClient(origin, secure ? tls : undefined, this.maxMessageBytes);
    this.clients.set(key, { origin, fingerprint, client });
    return client;
  }

  /** Closes the channels of origins not in `used`. */
  closeUnused(used: ReadonlySet<GrpcOrigin>): void {
    for (const [key, { origin, client }] of this.clients) {
      if (used.has(origin)) continue;
      client.close();
      this.clients.delete(key);
    }
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    this.closeUnused(new Set());
  }
}

/** A grpc-js client (its own channel) for `origin`; throws a TypeError on an origin that is not grpc:// or grpcs://. */
export function createGrpcClient(origin: GrpcOrigin, tls: GrpcTlsOptions | undefined, maxMessageBytes: number): Client {
  const match = grpcOrigin.exec(origin);
  if (!match) throw new TypeError(`a gRPC backend endpoint is grpc://host:port or grpcs://host:port, not ${origin}`);
  const [, scheme, address = ""] = match;
  const options: ClientOptions = {
    "grpc.max_receive_message_length": maxMessageBytes,
    "grpc.max_send_message_length": maxMessageBytes,
    "grpc.client_idle_timeout_ms": IDLE_TIMEOUT_MS,
    // Each Client gets a channel of its own: the pool above is the one place channels are shared.
    "grpc.use_local_subchannel_pool": 1,
  };
  if (scheme === "grpc") return new Client(address, ChannelCredentials.createInsecure(), options);
  if (tls?.serverName) {
    options["grpc.ssl_target_name_override"] = tls.serverName;
    options["grpc.default_authority"] = tls.serverName;
  }
  // Node's CA store without the plan's CAs, as for https backends: grpc-js's createSsl would read
  // GRPC_DEFAULT_SSL_ROOTS_FILE_PATH instead when set.
  const credentials = ChannelCredentials.createFromSecureContext(
    createSecureContext({
      ...(tls?.ca !== undefined ? { ca: tls.ca } : {}),
      ...(tls?.cert !== undefined && tls.key !== undefined ? { cert: tls.cert, key: tls.key } : {}),
    }),
  );
  return new Client(address, credentials, options);
}

/**
 * Why a call to a `grpcs://` origin failed to connect, when it is TLS (an expired, untrusted or
 * mismatched certificate, a client certificate refused), in the words an https backend gets;
 * undefined otherwise. grpc-js keeps only the failure's message, so one handshake with the same
 * material is made here (see @atrium/contract/tls-failure).
 */
export async function grpcTlsFailure(
  origin: GrpcOrigin,
  tls: GrpcTlsOptions | undefined,
  timeoutMs: number,
): Promise<string | undefined> {
  if (!origin.startsWith("grpcs:") || timeoutMs <= 0) return undefined;
  const { hostname, port } = new URL(origin);
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  const name = tls?.serverName ?? host;
  const error = await tlsHandshakeError({
    host,
    port: port === "" ? 443 : Number(port),
    name,
    ...(tls?.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls?.cert !== undefined && tls.key !== undefined ? { cert: tls.cert, key: tls.key } : {}),
    timeoutMs,
  });
  return error && tlsFailure(error, name);
}

/** Distinguishes TLS settings without keeping the key's text in a map key. */
function tlsFingerprint(tls: GrpcTlsOptions): string {
  const hash = createHash("sha256");
  for (const part of [tls.ca, tls.cert, tls.key, tls.serverName]) {
    hash.update(part === undefined ? "-" : `${Buffer.byteLength(part)}:`);
    if (part !== undefined) hash.update(part);
  }
  return hash.digest("base64url");
}
