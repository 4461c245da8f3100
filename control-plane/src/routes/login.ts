/**
 * POST /api/v1/login → an expiring bearer token; POST /api/v1/logout revokes it. Failed logins
 * are rate-limited per user and per source address (auth/login-rate-limit.ts).
 */

import { loginAnswer, loginBody } from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { announceRevocation } from "../auth/credential-watch.ts";
import { LoginRateLimiter, loginLimits } from "../auth/login-rate-limit.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { bearerToken } from "../auth/principal.ts";
import { newSecretValue, sha256, TOKEN_PREFIX } from "../auth/tokens.ts";
import type { AppContext } from "../context.ts";
import { loginSessions, organizations, users } from "../db/schema.ts";
import { errors } from "../errors.ts";

/** Compared against when the user does not exist, so both failures take as long. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXphYmNkZWY";

export const loginRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const limiter = new LoginRateLimiter(loginLimits(context.config.loginMaxFailures));

  app.post(
    "/login",
    {
      schema: {
        body: loginBody,
        response: { 200: loginAnswer },
      },
    },
    async (request) => {
      const { organization, username, password } = request.body;
      const user = JSON.stringify([organization, username]);
      try {
        limiter.check(user, request.ip);
      } catch (error) {
        context.metrics.loginFailures.inc({ reason: "rate_limited" });
        throw error;
      }
      const [row] = await db
        .select({ user: users })
        .from(users)
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(and(eq(organizations.name, organization), eq(users.username, username)));
      const valid = await verifyPassword(password, row?.user.passwordHash ?? DUMMY_HASH);
      if (!row || !valid) {
        limiter.recordFailure(user, request.ip);
        context.metrics.loginFailures.inc({ reason: "bad_credentials" });
        throw errors.badCredentials();
      }
      limiter.recordSuccess(user);
      const token = newSecretValue(TOKEN_PREFIX.login);
      const expiresAt = new Date(Date.now() + context.config.loginTtlSeconds * 1000);
      await db.insert(loginSessions).values({ userId: row.user.id, tokenHash: sha256(token), expiresAt });
      return { token, expiresAt: expiresAt.toISOString(), organizationId: row.user.organizationId };
    },
  );

  app.post("/logout", async (request, reply) => {
    const token = bearerToken(request);
    if (token) {
      await db.transaction(async (tx) => {
        const ended = await tx
          .delete(loginSessions)
          .where(eq(loginSessions.tokenHash, sha256(token)))
          .returning({ userId: loginSessions.userId });
        if (ended.length > 0) await announceRevocation(tx, request.principal.organizationId);
      });
    }
    return reply.status(204).send();
  });
};
