/**
 * Ends long-lived requests (change streams) whose credential stops being valid: deleted,
 * expired, logged out, its user deleted or given another role. Writers that revoke announce it
 * with a NOTIFY, which reaches every replica sharing the database; each replica then re-checks
 * the credentials it watches at once. A sweep every `sweepMs` and a timer at each credential's
 * expiry are the backstop, so a revocation takes effect within a few seconds even if a NOTIFY is
 * lost while a listening connection is re-opened. Streams also ask, before every event and
 * heartbeat, whether their credential still holds: asks made together share one query.
 */
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { coalesced } from "../coalesced.ts";
import type { Database, Db } from "../db/database.ts";
import { apiTokens, loginSessions, users } from "../db/schema.ts";
import type { Principal } from "./principal.ts";

export const REVOCATIONS_CHANNEL = "atrium_revocations";

/** Default backstop period: well under the 5 s the docs promise. */
export const SWEEP_MS = 2000;

type Executor = Pick<Db, "execute">;

/** Call in the revoking transaction: every replica re-checks the organization's credentials once it commits. */
export async function announceRevocation(db: Executor, organizationId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${REVOCATIONS_CHANNEL}, ${organizationId})`);
}

interface Watched {
  principal: Principal;
  onRevoked: () => void;
  expiry: NodeJS.Timeout | undefined;
}

/** Longest delay setTimeout accepts; a credential valid for longer is caught by the sweep. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class CredentialWatch {
  private readonly database: Database;
  private readonly sweepMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  /** `isStillValid` asks waiting for the next query. */
  private asks: { principal: Principal; resolve: (valid: boolean) => void; reject: (error: unknown) => void }[] = [];

  constructor(database: Database, onError: (error: unknown) => void, sweepMs = SWEEP_MS) {
    this.database = database;
    this.onError = onError;
    this.sweepMs = sweepMs;
  }

  async start(): Promise<void> {
    await this.database.listen(REVOCATIONS_CHANNEL, () => this.sweep());
    this.timer = setInterval(() => this.sweep(), this.sweepMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    for (const entry of this.watched) clearTimeout(entry.expiry);
    this.watched.clear();
  }

  /** Calls `onRevoked` once when the principal's credential stops being valid; returns "stop watching". */
  watch(principal: Principal, onRevoked: () => void): () => void {
    const entry: Watched = { principal, onRevoked, expiry: undefined };
    const untilExpiry = principal.expiresAt.getTime() - Date.now();
    if (untilExpiry < MAX_TIMER_MS) {
      entry.expiry = setTimeout(() => this.revoke(entry), Math.max(0, untilExpiry));
      entry.expiry.unref();
    }
    this.watched.add(entry);
    return () => {
      clearTimeout(entry.expiry);
      this.watched.delete(entry);
    };
  }

  /**
   * Whether the principal's credential still grants what it granted (not deleted, not expired, the
   * same role), read from the database now. Asks made in one turn of the event loop — every
   * stream sending one change, heartbeats due together — share one query, however many.
   */
  isStillValid(principal: Principal): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.asks.push({ principal, resolve, reject });
      if (this.asks.length === 1) setImmediate(() => void this.answerAsks());
    });
  }

  private async answerAsks(): Promise<void> {
    const asks = this.asks;
    this.asks = [];
    try {
      const valid = await validCredentials(
        this.database.db,
        asks.map((ask) => ask.principal),
      );
      for (const ask of asks) ask.resolve(valid.get(ask.principal.credentialId) === ask.principal.role);
    } catch (error) {
      for (const ask of asks) ask.reject(error);
    }
  }

  private revoke(entry: Watched): void {
    if (!this.watched.delete(entry)) return;
    clearTimeout(entry.expiry);
    entry.onRevoked();
  }

  /** Re-checks every watched credential; a sweep asked for while one runs runs again after it. */
  private readonly sweep = coalesced(
    () => this.check(),
    (error) => this.onError(error),
  );

  private async check(): Promise<void> {
    if (this.watched.size === 0) return;
    const entries = [...this.watched];
    const valid = await validCredentials(
      this.database.db,
      entries.map((entry) => entry.principal),
    );
    for (const entry of entries) {
      if (valid.get(entry.principal.credentialId) !== entry.principal.role) this.revoke(entry);
    }
  }
}

/** The credentials among `principals` still valid now, with their current role: two queries however many. */
async function validCredentials(db: Db, principals: Principal[]): Promise<Map<string, string>> {
  const now = new Date();
  const idsOf = (kind: Principal["kind"]) => [
    ...new Set(principals.filter((p) => p.kind === kind).map((p) => p.credentialId)),
  ];
  const tokenIds = idsOf("apiToken");
  const sessionIds = idsOf("user");
  const [tokens, sessions] = await Promise.all([
    tokenIds.length
      ? db
          .select({ id: apiTokens.id, role: apiTokens.role })
          .from(apiTokens)
          .where(and(inArray(apiTokens.id, tokenIds), gt(apiTokens.expiresAt, now)))
      : [],
    sessionIds.length
      ? db
          .select({ id: loginSessions.id, role: users.role })
          .from(loginSessions)
          .innerJoin(users, eq(users.id, loginSessions.userId))
          .where(and(inArray(loginSessions.id, sessionIds), gt(loginSessions.expiresAt, now)))
      : [],
  ]);
  return new Map<string, string>([...tokens, ...sessions].map((row) => [row.id, row.role]));
}
