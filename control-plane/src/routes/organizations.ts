/**
 * Organizations and their users. Platform admins create organizations (each with its first
 * admin); an organization's admins add users to it, change their role and remove them. Removing
 * a user or changing their role ends what their logins opened (auth/credential-watch.ts).
 */

import {
  createdOrganization,
  newUser,
  organizationBody,
  organizationView,
  userRoleBody,
  userView,
} from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requirePlatformAdmin } from "../auth/access-rules.ts";
import { announceRevocation } from "../auth/credential-watch.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { AppContext } from "../context.ts";
import { organizations, users } from "../db/schema.ts";
import { errors } from "../errors.ts";

export const organizationRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  app.post(
    "/organizations",
    {
      schema: {
        body: organizationBody,
        response: { 201: createdOrganization },
      },
    },
    async (request, reply) => {
      requirePlatformAdmin(request.principal, "Creating an organization");
      const { name, admin } = request.body;
      const passwordHash = await hashPassword(admin.password);
      const created = await db.transaction(async (tx) => {
        const [org] = await tx.insert(organizations).values({ name }).onConflictDoNothing().returning();
        if (!org) throw errors.alreadyExists("Organization", name);
        const [user] = await tx
          .insert(users)
          .values({ organizationId: org.id, username: admin.username, passwordHash, role: "admin" })
          .returning();
        return {
          id: org.id,
          name: org.name,
          admin: { id: user?.id ?? "", username: admin.username, role: "admin" as const },
        };
      });
      return reply.status(201).send(created);
    },
  );

  app.get("/organization", { schema: { response: { 200: organizationView } } }, async (request) => {
    const [org] = await db.select().from(organizations).where(eq(organizations.id, request.principal.organizationId));
    if (!org) throw errors.notFound("Organization", request.principal.organizationId);
    return { id: org.id, name: org.name };
  });

  app.post("/users", { schema: { body: newUser, response: { 201: userView } } }, async (request, reply) => {
    const { username, role } = request.body;
    const passwordHash = await hashPassword(request.body.password);
    const [user] = await db
      .insert(users)
      .values({ organizationId: request.principal.organizationId, username, passwordHash, role })
      .onConflictDoNothing()
      .returning();
    if (!user) throw errors.alreadyExists("User", username);
    return reply.status(201).send({ id: user.id, username: user.username, role: user.role });
  });

  app.get("/users", { schema: { response: { 200: z.object({ items: z.array(userView) }) } } }, async (request) => {
    const rows = await db
      .select({ id: users.id, username: users.username, role: users.role })
      .from(users)
      .where(eq(users.organizationId, request.principal.organizationId));
    return { items: rows };
  });

  app.put(
    "/users/:id",
    {
      schema: {
        params: z.object({ id: z.uuid() }),
        body: userRoleBody,
        response: { 200: userView },
      },
    },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const user = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(users)
          .set({ role: request.body.role })
          .where(and(eq(users.id, request.params.id), eq(users.organizationId, organizationId)))
          .returning({ id: users.id, username: users.username, role: users.role });
        if (!updated) throw errors.notFound("User", request.params.id);
        await announceRevocation(tx, organizationId);
        return updated;
      });
      return user;
    },
  );

  app.delete("/users/:id", { schema: { params: z.object({ id: z.uuid() }) } }, async (request, reply) => {
    const organizationId = request.principal.organizationId;
    await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(users)
        .where(and(eq(users.id, request.params.id), eq(users.organizationId, organizationId)))
        .returning({ id: users.id });
      if (deleted.length === 0) throw errors.notFound("User", request.params.id);
      await announceRevocation(tx, organizationId);
    });
    return reply.status(204).send();
  });
};
