/**
 * What the roles mean beyond the route table: gateway tokens bounded to FQDN patterns and
 * labels, environment references for admins only, users' roles changed by an admin, tokens'
 * roles shown by the list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  DATABASE_KINDS,
  sampleOpenApi,
  startIsolatedControlPlane,
  TEST_ADMIN,
  type TestControlPlane,
} from "../testing.ts";
import { fqdnAllowed } from "./registration-bounds.ts";

describe("FQDN patterns", () => {
  it("match the host exactly, or one label in front of a wildcard's domain; ports do not count", () => {
    expect(fqdnAllowed("gw1.example.com:7777", ["gw1.example.com"])).toBe(true);
    expect(fqdnAllowed("gw1.example.com", ["*.example.com"])).toBe(true);
    expect(fqdnAllowed("a.gw1.example.com", ["*.example.com"])).toBe(false);
    expect(fqdnAllowed("example.com", ["*.example.com"])).toBe(false);
    expect(fqdnAllowed("evilexample.com", ["*.example.com"])).toBe(false);
    expect(fqdnAllowed("gw2.example.com", ["gw1.example.com"])).toBe(false);
  });
});

describe.each(DATABASE_KINDS)("roles on %s", (kind) => {
  let cp: TestControlPlane & { stop(): Promise<void> };
  let member: ApiClient;
  let serviceId: string;
  const member1 = { username: "mo", password: "member-password-1" };

  beforeAll(async () => {
    cp = await startIsolatedControlPlane(kind);
    expect((await cp.admin.call("POST", "/api/v1/users", { ...member1, role: "member" })).status).toBe(201);
    member = await cp.api.login({ organization: TEST_ADMIN.organization, ...member1 });
    const service = await cp.admin.call("POST", "/api/v1/services", {
      name: "pets",
      version: "1",
      openapi: { inline: sampleOpenApi() },
    });
    serviceId = service.body.id;
  });
  afterAll(() => cp?.stop());

  async function token(body: Record<string, unknown>): Promise<ApiClient> {
    const created = await cp.admin.call("POST", "/api/v1/api-tokens", { validityDays: 1, ...body });
    expect(created.status).toBe(201);
    return cp.api.withToken(created.body.token);
  }

  it("creates gateway tokens by default and lists every token's role and bounds", async () => {
    await token({ name: "plain" });
    await token({ name: "bounded", allowedFqdns: ["*.gw.example.com"], requiredLabels: { region: "eu" } });
    await token({ name: "k8s", role: "operator" });
    const listed = await cp.admin.call("GET", "/api/v1/api-tokens");
    const byName = Object.fromEntries(listed.body.items.map((t: { name: string }) => [t.name, t]));
    expect(byName.plain).toMatchObject({ role: "gateway", allowedFqdns: null, requiredLabels: null });
    expect(byName.bounded).toMatchObject({ allowedFqdns: ["*.gw.example.com"], requiredLabels: { region: "eu" } });
    expect(byName.k8s).toMatchObject({ role: "operator" });
  });

  it("refuses bounds on a token that registers no gateway, and bad patterns", async () => {
    const onOperator = await cp.admin.call("POST", "/api/v1/api-tokens", {
      name: "x",
      validityDays: 1,
      role: "operator",
      allowedFqdns: ["gw.example.com"],
    });
    expect(onOperator.status).toBe(400);
    expect(onOperator.body.detail).toContain("only a gateway token");
    const badPattern = await cp.admin.call("POST", "/api/v1/api-tokens", {
      name: "y",
      validityDays: 1,
      allowedFqdns: ["gw.*.com"],
    });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.errors[0].field).toBe("body.allowedFqdns.0");
  });

  it("bounds a gateway's registration by its token's FQDN patterns and required labels", async () => {
    const gateway = await token({
      name: "eu-gw",
      allowedFqdns: ["*.gw.example.com"],
      requiredLabels: { region: "eu" },
    });
    const base = { id: "gw-eu-1", instanceId: "instance-eu-1", version: "1" };
    const ok = await gateway.call("POST", "/api/v1/gateways/register", {
      ...base,
      fqdns: ["a.gw.example.com:443"],
      labels: { region: "eu", zone: "b" },
    });
    expect(ok.status).toBe(200);
    const foreignFqdn = await gateway.call("POST", "/api/v1/gateways/register", {
      ...base,
      fqdns: ["a.gw.example.com", "mcp.bank.example"],
      labels: { region: "eu" },
    });
    expect(foreignFqdn).toMatchObject({ status: 403, body: { code: "REGISTRATION_REFUSED" } });
    expect(foreignFqdn.body.errors[0].field).toBe("body.fqdns.1");
    const wrongLabel = await gateway.call("POST", "/api/v1/gateways/register", {
      ...base,
      fqdns: ["a.gw.example.com"],
      labels: { region: "us" },
    });
    expect(wrongLabel).toMatchObject({ status: 403, body: { code: "REGISTRATION_REFUSED" } });
    expect(wrongLabel.body.detail).toContain("body.labels.region must be 'eu'");
    // The refused registrations changed nothing: the first one's FQDN stays.
    const listed = await cp.admin.call("GET", "/api/v1/gateways");
    expect(listed.body.items.find((g: { id: string }) => g.id === "gw-eu-1").fqdns).toEqual(["a.gw.example.com:443"]);
  });

  it("lets a gateway token deregister only its own instance", async () => {
    const gateway = await token({ name: "group-gw" });
    const registration = { fqdns: ["gw.example.com"], labels: {}, version: "1" };
    for (const [id, instanceId] of [
      ["gw-a", "instance-a-1"],
      ["gw-b", "instance-b-1"],
    ]) {
      const registered = await gateway.call("POST", "/api/v1/gateways/register", { id, instanceId, ...registration });
      expect(registered.status).toBe(200);
    }
    const anyInstance = await gateway.call("DELETE", "/api/v1/gateways/gw-b");
    expect(anyInstance).toMatchObject({ status: 400 });
    expect(JSON.stringify(anyInstance.body)).toContain("querystring.instanceId");
    expect((await gateway.call("DELETE", "/api/v1/gateways/gw-b?instanceId=instance-a-1")).status).toBe(404);
    expect((await gateway.call("DELETE", "/api/v1/gateways/gw-a?instanceId=instance-a-1")).status).toBe(204);
    // An admin may still remove any gateway.
    expect((await cp.admin.call("DELETE", "/api/v1/gateways/gw-b")).status).toBe(204);
  });

  it("lets only admins (and the operator) write an environment reference", async () => {
    const plan = (name: string) => ({
      name,
      serviceId,
      backendEndpoint: "https://pets.example.com",
      backendSecret: { env: "${env:ATRIUM_BACKEND_SECRET_PETS}" },
    });
    const byMember = await member.call("POST", "/api/v1/configuration-plans", plan("by-member"));
    expect(byMember).toMatchObject({ status: 403, body: { code: "ROLE_REFUSED" } });
    expect(byMember.body.detail).toContain("body.backendSecret.env");
    const byAdmin = await cp.admin.call("POST", "/api/v1/configuration-plans", plan("by-admin"));
    expect(byAdmin.status).toBe(201);
    const operator = await token({ name: "operator-env", role: "operator" });
    expect((await operator.call("POST", "/api/v1/configuration-plans", plan("by-operator"))).status).toBe(201);
    const replaced = await member.call("PUT", `/api/v1/configuration-plans/${byAdmin.body.id}`, plan("by-admin"));
    expect(replaced.status).toBe(403);
    const { backendSecret: _, ...withoutSecret } = plan("by-member");
    expect((await member.call("POST", "/api/v1/configuration-plans", withoutSecret)).status).toBe(201);
    // A client-credentials client secret read from the environment is such a reference too.
    const clientSecretFromEnv = await member.call("POST", "/api/v1/configuration-plans", {
      ...withoutSecret,
      name: "by-member-client-credentials",
      backendSecret: {
        oauth2ClientCredentials: {
          tokenUrl: "https://auth.example.com/token",
          clientId: "gw",
          clientSecret: { env: "${env:ATRIUM_BACKEND_SECRET_PETS}" },
        },
      },
    });
    expect(clientSecretFromEnv).toMatchObject({ status: 403, body: { code: "ROLE_REFUSED" } });
    expect(clientSecretFromEnv.body.detail).toContain("body.backendSecret.oauth2ClientCredentials.clientSecret.env");
  });

  it("lets only admins (and the operator) name a file on the gateway as backend TLS material", async () => {
    const plan = (name: string) => ({
      name,
      serviceId,
      backendEndpoint: "https://pets.example.com",
      backendTls: {
        clientCertificate: { file: "/var/run/atrium/backend-tls/pets/tls.crt" },
        clientKey: { file: "/var/run/atrium/backend-tls/pets/tls.key" },
      },
    });
    const byMember = await member.call("POST", "/api/v1/configuration-plans", plan("tls-by-member"));
    expect(byMember).toMatchObject({ status: 403, body: { code: "ROLE_REFUSED" } });
    expect(byMember.body.detail).toContain("Naming a file on the gateway (body.backendTls.clientCertificate.file)");
    const byAdmin = await cp.admin.call("POST", "/api/v1/configuration-plans", plan("tls-by-admin"));
    expect(byAdmin.status).toBe(201);
    const operator = await token({ name: "operator-tls", role: "operator" });
    expect((await operator.call("POST", "/api/v1/configuration-plans", plan("tls-by-operator"))).status).toBe(201);
    // A CA stored on the plan and a server name name nothing of the gateway's.
    const inline = await member.call("POST", "/api/v1/configuration-plans", {
      ...plan("tls-inline-by-member"),
      backendTls: { serverName: "pets.internal" },
    });
    expect(inline.status).toBe(201);
  });

  it("lets an admin change a user's role, effective at the next request", async () => {
    const users = await cp.admin.call("GET", "/api/v1/users");
    const id = users.body.items.find((u: { username: string }) => u.username === member1.username).id;
    expect((await member.call("GET", "/api/v1/api-tokens")).status).toBe(403);
    const promoted = await cp.admin.call("PUT", `/api/v1/users/${id}`, { role: "admin" });
    expect(promoted).toMatchObject({ status: 200, body: { role: "admin" } });
    expect((await member.call("GET", "/api/v1/api-tokens")).status).toBe(200);
    expect((await member.call("PUT", `/api/v1/users/${id}`, { role: "member" })).status).toBe(200);
    expect((await member.call("GET", "/api/v1/api-tokens")).status).toBe(403);
    const missing = await cp.admin.call("PUT", "/api/v1/users/00000000-0000-4000-8000-000000000000", { role: "admin" });
    expect(missing.status).toBe(404);
  });
});
