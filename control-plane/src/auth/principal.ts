/**
 * Resolves the bearer credential of a request to a principal: a logged-in user or an API
 * token, always within exactly one organization. Routes read `request.principal`.
 */
import { and, eq, gt } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/database.ts";
import { apiTokens, loginSessions, users } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { sha256, TOKEN_PREFIX } from "./tokens.ts";

export interface Principal {
  organizationId: string;
  kind: "user" | "apiToken";
  /** The user's or the API token's id. */
  subjectId: string;
  role: "admin" | "member";
  platformAdmin: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export async function authenticate(db: Db, token: string | undefined): Promise<Principal> {
  if (!token) throw errors.unauthenticated("No bearer token");
  const now = new Date();
  if (token.startsWith(TOKEN_PREFIX.login)) {
    const [row] = await db
      .select({ user: users })
      .from(loginSessions)
      .innerJoin(users, eq(users.id, loginSessions.userId))
      .where(and(eq(loginSessions.tokenHash, sha256(token)), gt(loginSessions.expiresAt, now)));
    if (!row) throw errors.unauthenticated("The login token is invalid or has expired");
    return {
      organizationId: row.user.organizationId,
      kind: "user",
      subjectId: row.user.id,
      role: row.user.role,
      platformAdmin: row.user.platformAdmin,
    };
  }
  if (token.startsWith(TOKEN_PREFIX.apiToken)) {
    const [row] = await db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.tokenHash, sha256(token)), gt(apiTokens.expiresAt, now)));
    if (!row) throw errors.unauthenticated("The API token is invalid, revoked or expired");
    return {
      organizationId: row.organizationId,
      kind: "apiToken",
      subjectId: row.id,
      role: "admin",
      platformAdmin: false,
    };
  }
  throw errors.unauthenticated("The bearer token is not an Atrium login or API token");
}

export function requireAdmin(principal: Principal, what: string): void {
  if (principal.role !== "admin") throw errors.forbidden(what);
}
