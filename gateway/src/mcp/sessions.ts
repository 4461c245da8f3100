/**
 * Legacy-era (2025) sessions without shared state: the `Mcp-Session-Id` is the session itself —
 * exposition, protocol version and issue time, signed with a key every replica of a gateway
 * group shares (ATRIUM_GATEWAY_SESSION_KEY). Any replica can serve any session; no sticky
 * routing. An ended session is remembered by the replica that ended it until it would expire.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export interface Session {
  expositionId: string;
  protocolVersion: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  /** The client declared elicitation support at initialize. */
  elicitation: boolean;
}

/** Sessions last a day; clients re-initialize after a 404. */
const SESSION_TTL_SECONDS = 24 * 3600;

export class SessionSigner {
  private readonly key: Buffer;
  private readonly ended = new Map<string, number>();

  constructor(key: Buffer = randomBytes(32)) {
    this.key = key;
  }

  issue(session: Omit<Session, "issuedAt">): string {
    const payload = Buffer.from(
      JSON.stringify({
        e: session.expositionId,
        v: session.protocolVersion,
        t: Math.floor(Date.now() / 1000),
        l: session.elicitation ? 1 : 0,
        n: randomBytes(9).toString("base64url"),
      }),
    ).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  /** The session, or undefined when the id is forged, expired, ended or malformed. */
  verify(id: string): Session | undefined {
    const dot = id.indexOf(".");
    if (dot <= 0 || this.ended.has(id)) return undefined;
    const payload = id.slice(0, dot);
    const given = Buffer.from(id.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.sign(payload), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
        e: string;
        v: string;
        t: number;
        l: number;
      };
      if (Date.now() / 1000 - decoded.t > SESSION_TTL_SECONDS) return undefined;
      return { expositionId: decoded.e, protocolVersion: decoded.v, issuedAt: decoded.t, elicitation: decoded.l === 1 };
    } catch {
      return undefined;
    }
  }

  end(id: string): void {
    const session = this.verify(id);
    if (!session) return;
    this.ended.set(id, session.issuedAt + SESSION_TTL_SECONDS);
    const now = Date.now() / 1000;
    for (const [ended, expiry] of this.ended) if (expiry < now) this.ended.delete(ended);
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
}
