/**
 * Resolves the bearer credential of a request to a principal: a logged-in user or an API
 * token, always within exactly one organization. Routes read `request.principal`; what each
 * role may do is in access-rules.ts.
 */

import type { TokenRole, UserRole } from "@atrium/contract/rest";
import { and, eq, gt, type SQL } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/database.ts";
import { apiTokens, loginSessions, users } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { sha256, TOKEN_PREFIX } from "./tokens.ts";

interface PrincipalBase {
  organizationId: string;
  /** The user's or the API token's id. */
  subjectId: string;
  /** The login session's or the API token's id: what a revocation ends. */
  credentialId: string;
  expiresAt: Date;
  platformAdmin: boolean;
}

export interface UserPrincipal extends PrincipalBase {
  kind: "user";
  role: UserRole;
}

export interface TokenPrincipal extends PrincipalBase {
  kind: "apiToken";
  role: TokenRole;
  /** Gateway tokens: FQDN patterns a registration may advertise; null allows any. */
  allowedFqdns: string[] | null;
  /** Gateway tokens: labels every registration must carry; null requires none. */
  requiredLabels: Record<string, string> | null;
}

export type Principal = UserPrincipal | TokenPrincipal;

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
  if (token.startsWith(TOKEN_PREFIX.login)) {
    const principal = await loginPrincipal(db, eq(loginSessions.tokenHash, sha256(token)));
    if (!principal) throw errors.unauthenticated("The login token is invalid or has expired");
    return principal;
  }
  if (token.startsWith(TOKEN_PREFIX.apiToken)) {
    const principal = await tokenPrincipal(db, eq(apiTokens.tokenHash, sha256(token)));
    if (!principal) throw errors.unauthenticated("The API token is invalid, revoked or expired");
    return principal;
  }
  throw errors.unauthenticated("The bearer token is not an Atrium login or API token");
}

async function loginPrincipal(db: Db, which: SQL): Promise<UserPrincipal | undefined> {
  const [row] = await db
    .select({ user: users, session: { id: loginSessions.id, expiresAt: loginSessions.expiresAt } })
    .from(loginSessions)
    .innerJoin(users, eq(users.id, loginSessions.userId))
    .where(and(which, gt(loginSessions.expiresAt, new Date())));
  if (!row) return undefined;
  return {
    organizationId: row.user.organizationId,
    kind: "user",
    subjectId: row.user.id,
    credentialId: row.session.id,
    expiresAt: row.session.expiresAt,
    role: row.user.role,
    platformAdmin: row.user.platformAdmin,
  };
}

async function tokenPrincipal(db: Db, which: SQL): Promise<TokenPrincipal | undefined> {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(which, gt(apiTokens.expiresAt, new Date())));
  if (!row) return undefined;
  return {
    organizationId: row.organizationId,
    kind: "apiToken",
    subjectId: row.id,
    credentialId: row.id,
    expiresAt: row.expiresAt,
    role: row.role,
    platformAdmin: false,
    allowedFqdns: row.allowedFqdns ?? null,
    requiredLabels: row.requiredLabels ?? null,
  };
}
