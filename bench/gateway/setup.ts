/**
 * What the gateway benchmark configures on the control plane, through its REST API: the
 * OpenAPI documents (one `getPet` operation; or N generated operations for the tools/list
 * scale check), and Services, Configuration Plans, Gateway Groups and Expositions. Each
 * scenario gets its own gateway group selecting `role=<scenario>`, so a gateway started with
 * that label serves that scenario's Expositions and nothing else.
 */
import { type ApiClient, TEST_ADMIN } from "@atrium/control-plane/testing";
import type { circuitBreaker, oauthSettings, planLimits, toolOutputFilters } from "@atrium/crds";
import { FIXTURE_OPENAPI } from "@atrium/gateway/testing";
import type { z } from "zod";

/** One operation, `getPet` → `GET /pets/{petId}`: the tool every contestant serves (the gateway fixture's). */
export function petsOpenApi(): Record<string, unknown> {
  const fixture = JSON.parse(FIXTURE_OPENAPI);
  return {
    openapi: "3.0.3",
    info: { title: "Bench pets", version: "1.0.0" },
    paths: { "/pets/{petId}": { get: fixture.paths["/pets/{petId}"].get } },
    components: fixture.components,
  };
}

/** The operationId (and tool name) of operation `i` of {@link manyOperationsOpenApi}. */
export const operationIdOf = (i: number) => `getResource${i}Item`;

/**
 * `count` operations shaped like real ones (a path parameter, two query parameters, a
 * description, a shared response schema), so tools/list carries realistic input schemas.
 */
export function manyOperationsOpenApi(count: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    paths[`/resources${i}/{itemId}`] = {
      get: {
        operationId: operationIdOf(i),
        summary: `Get an item of resource ${i}`,
        description: `Returns one item of resource collection ${i}, optionally expanded.`,
        parameters: [
          { name: "itemId", in: "path", required: true, schema: { type: "integer" } },
          { name: "expand", in: "query", schema: { type: "boolean" } },
          { name: "fields", in: "query", schema: { type: "string", maxLength: 200 } },
        ],
        responses: {
          "200": {
            description: "the item",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
          },
        },
      },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: `Bench ${count} operations`, version: "1.0.0" },
    paths,
    components: {
      schemas: {
        Item: {
          type: "object",
          properties: {
            id: { type: "integer" },
            name: { type: "string" },
            tags: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  };
}

export async function login(api: ApiClient): Promise<ApiClient> {
  return api.login(TEST_ADMIN);
}

/** `call`, failing loudly on anything but the expected status. */
async function expectStatus(
  admin: ApiClient,
  method: string,
  path: string,
  body: unknown,
  status: number,
  // biome-ignore lint/suspicious/noExplicitAny: REST answers are read field by field
): Promise<any> {
  const response = await admin.call(method, path, body);
  if (response.status !== status) {
    throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 2000)}`);
  }
  return response.body;
}

export async function createService(admin: ApiClient, name: string, openapi: Record<string, unknown>) {
  const service = await expectStatus(
    admin,
    "POST",
    "/api/v1/services",
    { name, version: "1", openapi: { inline: JSON.stringify(openapi) } },
    201,
  );
  return service.id as string;
}

/** A Service of kind graphql imported from `sdl`: its id. */
export async function createGraphqlService(admin: ApiClient, name: string, sdl: string) {
  const body = { name, version: "1", kind: "graphql", openapi: { inline: sdl } };
  return (await expectStatus(admin, "POST", "/api/v1/services", body, 201)).id as string;
}

/** A Service of kind grpc imported from one .proto file: its id, and the name of its one tool. */
export async function createGrpcService(admin: ApiClient, name: string, proto: string) {
  const body = {
    name,
    version: "1",
    kind: "grpc",
    openapi: { protoFiles: [{ path: `${name}.proto`, content: proto }] },
  };
  const id = (await expectStatus(admin, "POST", "/api/v1/services", body, 201)).id as string;
  const service = await expectStatus(admin, "GET", `/api/v1/services/${id}`, undefined, 200);
  const [operation] = service.operations as { operationId: string }[];
  if (!operation) throw new Error(`the gRPC Service ${name} has no operation`);
  return { id, tool: operation.operationId };
}

/** What a plan is written with; the rest of the plan is left at its defaults. */
export interface PlanOptions {
  name: string;
  serviceId: string;
  backendUrl: string;
  apiKey: boolean;
  /** Bearer-token protection instead of an API key. */
  oauth?: z.input<typeof oauthSettings>;
  circuitBreaker?: z.input<typeof circuitBreaker>;
  limits?: z.input<typeof planLimits>;
  toolOutputFilters?: z.input<typeof toolOutputFilters>;
  /** Operations whose tools the plan leaves out. */
  excludedOperations?: string[];
  /** What the gateway sends the backend: here only a token exchanged for the caller's (needs `oauth`). */
  backendSecret?: TokenExchangeSecret;
}

/** A `tokenExchange` backend secret as the REST API takes it: its client secret stored in the control plane. */
export interface TokenExchangeSecret {
  tokenExchange: {
    tokenUrl: string;
    clientId: string;
    clientSecret: { secretId: string };
    audience?: string;
    scopes?: string[];
  };
}

/** The REST body of a plan (fields left undefined are not sent). */
function planBody({ backendUrl, ...fields }: PlanOptions) {
  return { ...fields, backendEndpoint: backendUrl, backendTimeoutMs: 5_000 };
}

export async function createPlan(
  admin: ApiClient,
  options: PlanOptions,
): Promise<{ id: string; apiKey: string | undefined }> {
  const plan = await expectStatus(admin, "POST", "/api/v1/configuration-plans", planBody(options), 201);
  return { id: plan.id, apiKey: plan.apiKey };
}

/** Replaces a plan (PUT): resolves once the control plane has committed the change. */
export async function updatePlan(admin: ApiClient, id: string, options: PlanOptions): Promise<void> {
  await expectStatus(admin, "PUT", `/api/v1/configuration-plans/${id}`, planBody(options), 200);
}

/** A backend secret stored in the control plane (`POST /api/v1/secrets`): its id. */
export async function createSecret(admin: ApiClient, name: string, value: string): Promise<string> {
  return (await expectStatus(admin, "POST", "/api/v1/secrets", { name, value }, 201)).id as string;
}

/** A gateway group selecting gateways labelled `role=<role>`. */
export async function createGroup(admin: ApiClient, role: string): Promise<number> {
  const group = await expectStatus(admin, "POST", "/api/v1/gateway-groups", { name: role, labels: { role } }, 201);
  return group.id as number;
}

export async function createExposition(
  admin: ApiClient,
  name: string,
  planId: string,
  groupId: number,
): Promise<string> {
  const exposition = await expectStatus(
    admin,
    "POST",
    "/api/v1/expositions",
    { name, configurationPlanId: planId, gatewayGroupId: groupId },
    201,
  );
  return exposition.id as string;
}

/** The API token gateways register with. */
export async function createGatewayToken(admin: ApiClient): Promise<string> {
  const token = await expectStatus(
    admin,
    "POST",
    "/api/v1/api-tokens",
    { name: "bench-gateways", validityDays: 1 },
    201,
  );
  return token.token as string;
}
