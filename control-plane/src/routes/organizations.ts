/**
 * Organizations and their users. Platform admins create organizations (each with its first
 * admin); an organization's admins add users to it.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { hashPassword } from "../auth/passwords.ts";
import { requireAdmin } from "../auth/principal.ts";
import type { AppContext } from "../context.ts";
import { organizations, users } from "../db/schema.ts";
import { errors } from "../errors.ts";

const organizationName = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, {
  message: "must be 1-63 lowercase letters, digits or '-' (it appears in MCP endpoint paths)",
});
const password = z.string().min(12, { message: "must be at least 12 characters" }).max(1024);
const newUser = z.object({
  username: z.string().min(1).max(128),
  password,
  role: z.enum(["admin", "member"]).default("member"),
});
const userView = z.object({ id: z.string(), username: z.string(), role: z.enum(["admin", "member"]) });

export const organizationRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  app.post(
    "/organizations",
    {
      schema: {
        body: z.object({ name: organizationName, admin: newUser.omit({ role: true }) }),
        response: { 201: z.object({ id: z.string(), name: z.string(), admin: userView }) },
      },
    },
    async (request, reply) => {
      if (!request.principal.platformAdmin) throw errors.forbidden("Creating an organization");
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

  app.get(
    "/organization",
    { schema: { response: { 200: z.object({ id: z.string(), name: z.string() }) } } },
    async (request) => {
      const [org] = await db.select().from(organizations).where(eq(organizations.id, request.principal.organizationId));
      if (!org) throw errors.notFound("Organization", request.principal.organizationId);
      return { id: org.id, name: org.name };
    },
  );

  app.post("/users", { schema: { body: newUser, response: { 201: userView } } }, async (request, reply) => {
    requireAdmin(request.principal, "Adding a user");
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

  app.delete("/users/:id", { schema: { params: z.object({ id: z.uuid() }) } }, async (request, reply) => {
    requireAdmin(request.principal, "Removing a user");
    const deleted = await db
      .delete(users)
      .where(and(eq(users.id, request.params.id), eq(users.organizationId, request.principal.organizationId)))
      .returning({ id: users.id });
    if (deleted.length === 0) throw errors.notFound("User", request.params.id);
    return reply.status(204).send();
  });
};
