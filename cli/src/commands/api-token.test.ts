/**
 * `atrium api-token` against a real control plane and gateway: tokens shown once, bounded gateway
 * tokens, revocation, and what each refusal says.
 */
import { randomUUID } from "node:crypto";
import { ApiClient } from "@atrium/control-plane/testing";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { fails, json, ok, row, withCliStack } from "../testing.ts";

let stack: Stack;
const atrium = withCliStack((cli) => ({ stack } = cli));

describe("api-token", () => {
  const register = (token: string) =>
    new ApiClient(stack.controlPlane.url, token).call("POST", "/api/v1/gateways/register", {
      id: "gw-token-test",
      instanceId: randomUUID(),
      fqdns: ["gw-token-test.test"],
    });

  it("creates (value shown once), lists and deletes tokens; a deleted token cannot register a gateway", async () => {
    const created = json(await atrium(["api-token", "create", "ci-gateways", "--validity-days", "30", "-o", "json"]));
    expect(created.token).toMatch(/^atr_t_/);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await register(created.token)).status).toBe(200);

    const table = ok(await atrium(["api-token", "create", "other", "--validity-days", "1"]));
    expect(row(table, "TOKEN")).toMatch(/^atr_t_/);
    expect(table.stdout).toContain("Save the token now: it is shown only this once.");

    const list = ok(await atrium(["api-token", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+ROLE\s+BOUNDS\s+EXPIRES\s+CREATED AT$/m);
    expect(list.stdout).toMatch(new RegExp(`^${created.id}\\s+ci-gateways\\s+gateway\\s+-\\s`, "m"));
    expect(list.stdout).not.toContain("atr_t_");
    const listed = json(await atrium(["api-token", "list", "-o", "json"]));
    expect(listed.find((t: { id: string }) => t.id === created.id)).toMatchObject({ name: "ci-gateways" });
    expect(JSON.stringify(listed)).not.toContain("atr_t_");

    expect(ok(await atrium(["api-token", "delete", created.id])).stdout).toBe(`Revoked API token ${created.id}.\n`);
    const refused = await register(created.token);
    expect(refused.status).toBe(401);

    const other = row(table, "ID") as string;
    expect(json(await atrium(["api-token", "delete", other, "-o", "json"]))).toEqual({ id: other, deleted: true });
  });

  it("creates operator tokens and bounded gateway tokens, shown by get and list", async () => {
    const operator = json(
      await atrium(["api-token", "create", "k8s-operator", "--role", "operator", "--validity-days", "1", "-o", "json"]),
    );
    expect(operator.role).toBe("operator");
    expect((await register(operator.token)).status).toBe(403);
    const bounded = json(
      await atrium([
        "api-token",
        "create",
        "eu-gateways",
        "--validity-days",
        "1",
        "--allowed-fqdn",
        "*.eu.test",
        "--required-label",
        "region=eu",
        "-o",
        "json",
      ]),
    );
    expect(bounded).toMatchObject({ role: "gateway", allowedFqdns: ["*.eu.test"], requiredLabels: { region: "eu" } });
    const shown = ok(await atrium(["api-token", "get", bounded.id]));
    expect(row(shown, "BOUNDS")).toBe("fqdns=*.eu.test region=eu");
    expect(shown.stdout).not.toContain("atr_t_");
    expect((await register(bounded.token)).status).toBe(403);
    fails(
      await atrium(["api-token", "create", "t", "--validity-days", "1", "--role", "root"]),
      2,
      "Allowed choices are gateway, operator, admin",
    );
  });

  it("explains missing and bad --validity-days and unknown tokens", async () => {
    fails(await atrium(["api-token", "create", "t"]), 2, "required option '--validity-days <n>' not specified");
    fails(await atrium(["api-token", "create", "t", "--validity-days", "0"]), 2, "give a whole number of 1 or more");
    fails(await atrium(["api-token", "create", "t", "--validity-days", "99999"]), 1, "body.validityDays");
    const id = randomUUID();
    fails(await atrium(["api-token", "delete", id]), 1, `API token '${id}' does not exist in this organization`);
  });
});
