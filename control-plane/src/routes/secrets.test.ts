/**
 * The secrets routes, on PGlite and on PostgreSQL: values stored encrypted under the active key,
 * never returned, re-encrypted idempotently by an organization admin of the bootstrap
 * organization only.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addOrganization, DATABASE_KINDS, selectRows, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("secrets on %s", (kind) => {
  const controlPlane = useIsolatedControlPlane(kind);

  it("stores secrets encrypted, never returns them, and re-encrypts idempotently", async () => {
    const cp = controlPlane();
    const admin = cp.admin;
    const created = await admin.call("POST", "/api/v1/secrets", { name: "backend-token", value: "s3cr3t-value-42" });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain("s3cr3t-value-42");
    const listed = await admin.call("GET", "/api/v1/secrets");
    expect(JSON.stringify(listed.body)).not.toContain("s3cr3t-value-42");
    const rows = await selectRows<{ encrypted_value: string }>(cp, sql`select encrypted_value from secrets`);
    const values = rows.map((r) => r.encrypted_value);
    expect(values[0]).toMatch(/^gcm1:test:/);
    expect(values.join()).not.toContain("s3cr3t");
    const report = await admin.call("POST", "/api/v1/admin/reencrypt");
    expect(report.body).toMatchObject({ scanned: 1, reencrypted: 0, alreadyCurrent: 1 });
    const other = await addOrganization(cp, "other");
    expect((await other.call("POST", "/api/v1/admin/reencrypt")).status).toBe(403);
  });
});
