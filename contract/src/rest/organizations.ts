/** Organizations and their users: bodies and views. */
import { z } from "zod";

export const USER_ROLES = ["admin", "member"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const organizationName = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, {
  message: "must be 1-63 lowercase letters, digits or '-' (it appears in MCP endpoint paths)",
});
const password = z.string().min(12, { message: "must be at least 12 characters" }).max(1024);
export const newUser = z.object({
  username: z.string().min(1).max(128),
  password,
  role: z.enum(USER_ROLES).default("member"),
});
export const userView = z.object({ id: z.string(), username: z.string(), role: z.enum(USER_ROLES) });
export const userRoleBody = z.object({ role: z.enum(USER_ROLES) });
export const organizationBody = z.object({ name: organizationName, admin: newUser.omit({ role: true }) });
export const organizationView = z.object({ id: z.string(), name: z.string() });
export const createdOrganization = organizationView.extend({ admin: userView });
