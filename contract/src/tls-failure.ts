/**
 * A failed TLS handshake in words (which check failed, for which host): the gateway's calls to
 * https and grpcs backends and the control plane's reflection import over grpcs say the same.
 *
 * gRPC's client (@grpc/grpc-js) keeps only the message of the error that failed its connection,
 * not the error: `tlsHandshakeError` repeats the handshake once with the same trust and name, so
 * `tlsFailure` can read the code.
 */
import { isIP } from "node:net";
import { checkServerIdentity, connect } from "node:tls";

/** Alerts a server sends when it refuses the client's certificate, in words. */
const CLIENT_CERTIFICATE_ALERTS: Record<string, string> = {
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: "it requires one and none was sent",
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: "the handshake failed (a client certificate it requires was not sent?)",
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: "it does not trust the CA that signed it",
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: "it found the certificate bad",
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: "it has expired",
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED: "it is revoked",
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: "it could not verify it",
  ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: "it does not support that kind of certificate",
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: "it denied access",
  ERR_SSL_TLSV1_ALERT_DECRYPT_ERROR: "the certificate's signature did not verify",
};

/** Verification failures of the peer's own certificate (OpenSSL's codes), in words; TRUSTER is who trusts. */
const SERVER_CERTIFICATE_ERRORS: Record<string, string> = {
  CERT_HAS_EXPIRED: "has expired",
  CERT_NOT_YET_VALID: "is not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: "is self-signed and not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "chains to a CA TRUSTER does not trust",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "is signed by a CA TRUSTER does not trust",
  UNABLE_TO_GET_ISSUER_CERT: "is signed by a CA TRUSTER does not trust",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "is signed by a CA TRUSTER does not trust",
  CERT_UNTRUSTED: "is not trusted",
  CERT_SIGNATURE_FAILURE: "has a signature that does not verify",
  CERT_REVOKED: "is revoked",
  INVALID_CA: "chains through a certificate that is not a CA",
};

export type TlsError = Error & { code?: string; reason?: string; cause?: unknown };

/** Who the words are about: the peer (`backend`, `server`) and who trusts its CA (`the plan`). */
export type TlsParties = { peer: string; truster: string };

const GATEWAY: TlsParties = { peer: "backend", truster: "the plan" };

/**
 * What a failed call's error says about TLS, in words for the client (which check failed, for
 * which host), or undefined when it is not a TLS failure.
 */
export function tlsFailure(error: TlsError, host: string, parties: TlsParties = GATEWAY): string | undefined {
  const { peer, truster } = parties;
  const errors = [error, error.cause].filter(
    (one): one is Error & { code?: string; reason?: string } => one instanceof Error,
  );
  for (const one of errors) {
    const code = one.code ?? "";
    if (code === "ERR_TLS_CERT_ALTNAME_INVALID")
      return `The ${peer}'s TLS certificate is not for ${host}: ${one.reason ?? one.message}`;
    const server = SERVER_CERTIFICATE_ERRORS[code]?.replace("TRUSTER", truster);
    if (server) return `The ${peer}'s TLS certificate (for ${host}) ${server} (${code})`;
    const client = CLIENT_CERTIFICATE_ALERTS[code];
    if (client) return `The ${peer} (${host}) refused the gateway's TLS client certificate: ${client} (${code})`;
    if (code.startsWith("ERR_SSL_") || code === "EPROTO")
      return `The TLS handshake with the ${peer} (${host}) failed (${code})`;
  }
  return undefined;
}

export type TlsHandshake = {
  /** Where to connect: a host name or an address already checked. */
  host: string;
  port: number;
  /** The name the certificate must be for, sent as SNI unless it is an address. */
  name: string;
  /** PEM CAs, the only ones trusted; without them the system's (Node's default store). */
  ca?: string | Buffer;
  /** PEM client certificate and its key (mutual TLS). */
  cert?: string | Buffer;
  key?: string | Buffer;
  timeoutMs: number;
};

/** How long after its handshake a server has to refuse the client's certificate, unless it speaks first. */
const REFUSAL_WAIT_MS = 500;

/**
 * The error of one connection and TLS handshake (ALPN h2, as gRPC offers) with these settings,
 * for `tlsFailure` to read; undefined when the handshake succeeds or nothing is settled within
 * `timeoutMs`. With TLS 1.3 a server refuses a client certificate (or its absence) only after the
 * client's side of the handshake is done: its alert is waited for until it sends data (an HTTP/2
 * server's SETTINGS: it accepted the client), for REFUSAL_WAIT_MS at most.
 */
export function tlsHandshakeError(handshake: TlsHandshake): Promise<TlsError | undefined> {
  const { host, port, name, ca, cert, key, timeoutMs } = handshake;
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port,
      ...(isIP(name) ? {} : { servername: name }),
      checkServerIdentity: (_host, certificate) => checkServerIdentity(name, certificate),
      ...(ca !== undefined ? { ca } : {}),
      ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
      ALPNProtocols: ["h2"],
      rejectUnauthorized: true,
    });
    const settle = (error: TlsError | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(error);
    };
    let timer = setTimeout(() => settle(undefined), timeoutMs);
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      timer = setTimeout(() => settle(undefined), Math.min(timeoutMs, REFUSAL_WAIT_MS));
      socket.once("data", () => settle(undefined));
      socket.once("close", () => settle(undefined));
    });
    socket.once("error", (error: TlsError) => settle(error));
  });
}
