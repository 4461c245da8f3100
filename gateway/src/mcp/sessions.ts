/**
 * Legacy-era (2025) sessions without shared state: the `Mcp-Session-Id` is the session itself —
 * exposition, protocol version and issue time, signed with a key every replica of a gateway
 * group shares (ATRIUM_GATEWAY_SESSION_KEY). Any replica can serve any session; no sticky
 * routing. The one shared fact is which sessions were ended: the replica that ends one refuses
 * it at once and hands it to `onEnded` (which reports it to the control plane); the change
 * stream brings those ended elsewhere to `refuse`. Each is known by the SHA-256 of its id, until
 * it would have expired.
 *
 * A session's calls carry the same id each time: once verified (HMAC, decoding), the session is
 * remembered by the exact id (at most MAX_VERIFIED_SESSIONS), so later calls skip both — profiles
 * put them at 18 % of a 2025 session's CPU. Only an id that passed the check is remembered, and a
 * remembered one is still refused once it has expired or been ended.
 */
import { createHash, createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from "node:crypto";
import { type EndedSession, SESSION_TTL_SECONDS } from "@atrium/contract";

export interface Session {
  expositionId: string;
  protocolVersion: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  /** The client declared elicitation support at initialize. */
  elicitation: boolean;
  /** On OAuth-protected endpoints, the user (issuer and subject) the session belongs to. */
  user?: string;
}

/** Expired entries are swept at most this often: a sweep walks every entry. */
const SWEEP_INTERVAL_MS = 60_000;
/** Most verified sessions remembered; beyond it the oldest is forgotten (and verified again if it comes back). */
export const MAX_VERIFIED_SESSIONS = 10_000;

/** A session whose id passed the check, and that id's hash (what ended sessions are known by). */
interface Verified {
  session: Readonly<Session>;
  hash: string;
}

export function sessionHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

export class SessionSigner {
  /** A KeyObject made once: given the raw bytes, every HMAC would make one again (≈ 15 µs of 18). */
  private readonly key: KeyObject;
  private readonly onEnded: ((ended: EndedSession) => void) | undefined;
  /** By session hash. */
  private readonly ended = new Map<string, EndedSession>();
  /** By the exact session id, oldest first. */
  private readonly verified = new Map<string, Verified>();
  private sweptAt = Date.now();

  constructor(key: Buffer = randomBytes(32), onEnded?: (ended: EndedSession) => void) {
    this.key = createSecretKey(key);
    this.onEnded = onEnded;
  }

  issue(session: Omit<Session, "issuedAt">): string {
    const payload = Buffer.from(
      JSON.stringify({
        e: session.expositionId,
        v: session.protocolVersion,
        t: Math.floor(Date.now() / 1000),
        l: session.elicitation ? 1 : 0,
        ...(session.user ? { u: session.user } : {}),
        n: randomBytes(9).toString("base64url"),
      }),
    ).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  /** The session, or undefined when the id is forged, expired, ended or malformed. */
  verify(id: string): Readonly<Session> | undefined {
    const known = this.verified.get(id) ?? this.check(id);
    if (!known) return undefined;
    if (Date.now() / 1000 - known.session.issuedAt > SESSION_TTL_SECONDS || this.ended.has(known.hash)) {
      this.verified.delete(id);
      return undefined;
    }
    return known.session;
  }

  /** Verifies a session id not seen before (signature and content) and remembers it when it passes. */
  private check(id: string): Verified | undefined {
    const session = this.decode(id);
    if (!session) return undefined;
    const known = { session: Object.freeze(session), hash: sessionHash(id) };
    if (this.verified.size >= MAX_VERIFIED_SESSIONS) this.verified.delete(this.verified.keys().next().value ?? "");
    this.verified.set(id, known);
    return known;
  }

  /** The session an id carries, or undefined when it is malformed or not signed with this key. */
  private decode(id: string): Session | undefined {
    const dot = id.indexOf(".");
    if (dot <= 0) return undefined;
    const payload = id.slice(0, dot);
    // The signature's text, not its decoded bytes: base64url decoding skips stray characters, so
    // `…=` would pass as a second id of the session, with a hash no ended-sessions list holds.
    const given = Buffer.from(id.slice(dot + 1), "utf8");
    const expected = Buffer.from(this.sign(payload), "utf8");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
        e: string;
        v: string;
        t: number;
        l: number;
        u?: string;
      };
      return {
        expositionId: decoded.e,
        protocolVersion: decoded.v,
        issuedAt: decoded.t,
        elicitation: decoded.l === 1,
        ...(typeof decoded.u === "string" ? { user: decoded.u } : {}),
      };
    } catch {
      return undefined;
    }
  }

  end(id: string): void {
    const session = this.verify(id);
    if (!session) return;
    const ended: EndedSession = {
      expositionId: session.expositionId,
      sessionHash: sessionHash(id),
      expiresAt: new Date((session.issuedAt + SESSION_TTL_SECONDS) * 1000).toISOString(),
    };
    this.refuse([ended]);
    this.onEnded?.(ended);
  }

  /** Sessions ended on other replicas (from the change stream) or before a restart (from the cache). */
  refuse(endedSessions: EndedSession[]): void {
    for (const ended of endedSessions) this.ended.set(ended.sessionHash, ended);
    if (Date.now() - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = Date.now();
    for (const [hash, ended] of this.ended) if (Date.parse(ended.expiresAt) < this.sweptAt) this.ended.delete(hash);
  }

  /** What `refuse` was given or `end` ended, for the cache file. */
  endedSessions(): EndedSession[] {
    return [...this.ended.values()];
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
}
