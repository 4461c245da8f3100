/**
 * First start: creates the admin organization and user. The password comes from
 * configuration, or is generated and returned so the caller prints it once.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
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
}

export async function bootstrapAdmin(db: Db, bootstrap: ControlPlaneConfig["bootstrap"]): Promise<BootstrapResult> {
  const { organization, username } = bootstrap;
  const anyUser = await db.select({ id: users.id }).from(users).limit(1);
  if (anyUser.length > 0) return { created: false, organization, username };
  const generatedPassword = bootstrap.password ? undefined : randomBytes(18).toString("base64url");
  const passwordHash = await hashPassword(bootstrap.password ?? (generatedPassword as string));
  await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(organizations).where(eq(organizations.name, organization));
    const org = existing ?? (await tx.insert(organizations).values({ name: organization }).returning())[0];
    if (!org) throw new Error("could not create the admin organization");
    await tx
      .insert(users)
      .values({ organizationId: org.id, username, passwordHash, role: "admin", platformAdmin: true });
  });
  return { created: true, organization, username, ...(generatedPassword ? { generatedPassword } : {}) };
}
