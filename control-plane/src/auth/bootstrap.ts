/**
 * First start: creates the admin organization and user. The password comes from
 * configuration, or is generated and returned so the caller prints it once. Replicas starting
 * together on an empty database take turns on a transaction lock and re-check inside it, so
 * exactly one creates the admin and none fails; each returns a message saying who created it
 * and where its password is shown.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { ControlPlaneConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import { organizations, users } from "../db/schema.ts";
import { hashPassword } from "./passwords.ts";

export interface BootstrapResult {
  created: boolean;
  organization: string;
  username: string;
  /** Only when generated: shown once, never stored in clear. */
  generatedPassword?: string;
  /** What the operator needs to know, for every replica's log: who created the admin, where its password is. */
  message: string;
}

/** Arbitrary but fixed: every replica must use the same key. */
const BOOTSTRAP_LOCK_KEY = 0x61747262; // "atrb"

export async function bootstrapAdmin(db: Db, bootstrap: ControlPlaneConfig["bootstrap"]): Promise<BootstrapResult> {
  const { organization, username } = bootstrap;
  if (await anyUser(db)) return { created: false, organization, username, message: await existingAdmin(db) };
  const generatedPassword = bootstrap.password ? undefined : randomBytes(18).toString("base64url");
  const passwordHash = await hashPassword(bootstrap.password ?? (generatedPassword as string));
  const created = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`);
    if (await anyUser(tx as unknown as Db)) return false; // another replica was first
    await tx.insert(organizations).values({ name: organization }).onConflictDoNothing();
    const [org] = await tx.select().from(organizations).where(eq(organizations.name, organization));
    if (!org) throw new Error("could not create the admin organization");
    const inserted = await tx
      .insert(users)
      .values({ organizationId: org.id, username, passwordHash, role: "admin", platformAdmin: true })
      .onConflictDoNothing()
      .returning({ id: users.id });
    return inserted.length > 0;
  });
  const who = `admin '${username}' of organization '${organization}'`;
  if (!created) {
    return {
      created: false,
      organization,
      username,
      message:
        `The ${who} was created by another replica starting at the same time` +
        (bootstrap.password
          ? ", with the password from ATRIUM_ADMIN_PASSWORD"
          : "; its generated password is printed once on that replica's standard output"),
    };
  }
  return {
    created: true,
    organization,
    username,
    ...(generatedPassword ? { generatedPassword } : {}),
    message:
      `This replica created the ${who}` +
      (generatedPassword
        ? "; its generated password is printed once on this replica's standard output (not in the log)"
        : ", with the password from ATRIUM_ADMIN_PASSWORD"),
  };
}

async function anyUser(db: Db): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).limit(1)).length > 0;
}

async function existingAdmin(db: Db): Promise<string> {
  const [admin] = await db
    .select({ username: users.username, organization: organizations.name, createdAt: users.createdAt })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.platformAdmin, true))
    .orderBy(users.createdAt)
    .limit(1);
  if (!admin) return "Users exist already: no admin bootstrapped";
  return (
    `The platform admin '${admin.username}' of organization '${admin.organization}' exists since ` +
    `${admin.createdAt.toISOString()}: created by the first start, which printed its generated password once on its standard output (or used ATRIUM_ADMIN_PASSWORD)`
  );
}
