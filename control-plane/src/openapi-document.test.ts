/**
 * The OpenAPI document the control plane serves is generated from @atrium/contract/rest: every
 * JSON answer and every JSON request body it documents is the contract's schema, converted as
 * fastify-type-provider-zod converts it, and none is left out of this table; every API operation
 * answers failures with the contract's problem document.
 */

import { endedSessionsReport, gatewayProblemsReport, gatewayRegistration, registrationAnswer } from "@atrium/contract";
import {
  artifactRecords,
  createdOrganization,
  createdToken,
  elicitationView,
  elicitedCredentialBody,
  elicitedCredentialView,
  expositionBody,
  expositionToolsView,
  expositionView,
  gatewayGroupBody,
  gatewayGroupView,
  gatewayHealthBody,
  gatewayView,
  infoView,
  listOf,
  loginAnswer,
  loginBody,
  newElicitation,
  newToken,
  newUser,
  organizationBody,
  organizationView,
  planBody,
  planView,
  planWithKey,
  problemDocument,
  reencryptReport,
  secretBody,
  secretValueBody,
  secretView,
  serviceBody,
  serviceDetail,
  serviceView,
  tokenView,
  userRoleBody,
  userView,
} from "@atrium/contract/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { problemJsonSchema } from "./openapi-problems.ts";
import { startTestControlPlane, type TestControlPlane } from "./testing.ts";

const answers: Record<string, z.ZodType> = {
  "POST /login 200": loginAnswer,
  "GET /info 200": infoView,
  "POST /organizations 201": createdOrganization,
  "GET /organization 200": organizationView,
  "POST /users 201": userView,
  "GET /users 200": listOf(userView),
  "PUT /users/{id} 200": userView,
  "POST /api-tokens 201": createdToken,
  "GET /api-tokens 200": listOf(tokenView),
  "GET /api-tokens/{id} 200": tokenView,
  "POST /secrets 201": secretView,
  "GET /secrets 200": listOf(secretView),
  "GET /secrets/{id} 200": secretView,
  "PUT /secrets/{id} 200": secretView,
  "POST /admin/reencrypt 200": reencryptReport,
  "POST /services 201": serviceView,
  "POST /services/import 201": serviceView,
  "GET /services 200": listOf(serviceView),
  "PUT /services/{id} 200": serviceView,
  "GET /services/{id} 200": serviceDetail,
  "POST /gateway-groups 201": gatewayGroupView,
  "GET /gateway-groups 200": listOf(gatewayGroupView),
  "GET /gateway-groups/{id} 200": gatewayGroupView,
  "PUT /gateway-groups/{id} 200": gatewayGroupView,
  "POST /configuration-plans 201": planWithKey,
  "GET /configuration-plans 200": listOf(planView),
  "GET /configuration-plans/{id} 200": planView,
  "PUT /configuration-plans/{id} 200": planWithKey,
  "POST /configuration-plans/{id}/renew-api-key 200": planWithKey,
  "POST /expositions 201": expositionView,
  "GET /expositions 200": listOf(expositionView),
  "GET /expositions/{id} 200": expositionView,
  "GET /expositions/{id}/tools 200": expositionToolsView,
  "PUT /expositions/{id} 200": expositionView,
  "POST /gateways/register 200": registrationAnswer,
  "GET /gateways 200": listOf(gatewayView),
  "GET /expositions/{id}/elicited-credentials/{principal} 200": elicitedCredentialView,
  "PUT /expositions/{id}/elicited-credentials/{principal} 200": elicitedCredentialView,
  "POST /elicitations 201": elicitationView,
  "GET /elicitations/{idHash} 200": elicitationView,
  "POST /elicitations/{idHash}/consume 200": elicitationView,
};
const bodies: Record<string, z.ZodType> = {
  "POST /login": loginBody,
  "POST /organizations": organizationBody,
  "POST /users": newUser,
  "PUT /users/{id}": userRoleBody,
  "POST /api-tokens": newToken,
  "POST /secrets": secretBody,
  "PUT /secrets/{id}": secretValueBody,
  "POST /services": serviceBody,
  /** The uploaded document itself, in whatever form it was saved. */
  "POST /services/import": z.unknown(),
  "PUT /services/{id}": serviceBody,
  "POST /gateway-groups": gatewayGroupBody,
  "PUT /gateway-groups/{id}": gatewayGroupBody,
  "POST /configuration-plans": planBody,
  "PUT /configuration-plans/{id}": planBody,
  "POST /expositions": expositionBody,
  "PUT /expositions/{id}": expositionBody,
  "POST /gateways/register": gatewayRegistration,
  "POST /gateways/{id}/health": gatewayHealthBody,
  "POST /gateways/{id}/ended-sessions": endedSessionsReport,
  "PUT /gateways/{id}/problems": gatewayProblemsReport,
  "PUT /expositions/{id}/elicited-credentials/{principal}": elicitedCredentialBody,
  "POST /elicitations": newElicitation,
};
for (const { path, body, view } of artifactRecords) {
  Object.assign(answers, {
    [`POST ${path} 201`]: view,
    [`GET ${path} 200`]: listOf(view),
    [`GET ${path}/{id} 200`]: view,
    [`PUT ${path}/{id} 200`]: view,
  });
  Object.assign(bodies, { [`POST ${path}`]: body, [`PUT ${path}/{id}`]: body });
}

/** As fastify-type-provider-zod writes a schema into the document. */
function documented(schema: z.ZodType, io: "input" | "output"): unknown {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, target: "openapi-3.0" }) as Record<string, unknown>;
  return json;
}

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> } | undefined>;
}

describe("the OpenAPI document", () => {
  let cp: TestControlPlane;
  const documentedAnswers = new Map<string, unknown>();
  const documentedBodies = new Map<string, unknown>();
  const problemAnswers = new Map<string, unknown>();
  let problemSchema: unknown;

  beforeAll(async () => {
    cp = await startTestControlPlane("pglite");
    const { body } = await cp.api.call("GET", "/api/v1/openapi.json");
    problemSchema = body.components?.schemas?.Problem;
    for (const [path, operations] of Object.entries(body.paths as Record<string, Record<string, Operation>>)) {
      if (!path.startsWith("/api/v1/")) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path.slice("/api/v1".length)}`;
        problemAnswers.set(route, operation.responses.default?.content?.["application/problem+json"]?.schema);
        for (const [status, response] of Object.entries(operation.responses)) {
          const json = response?.content?.["application/json"];
          if (json) documentedAnswers.set(`${route} ${status}`, json.schema);
        }
        const json = operation.requestBody?.content["application/json"];
        if (json) documentedBodies.set(route, json.schema);
      }
    }
  }, 60_000);
  afterAll(async () => {
    await cp?.close();
  });

  it("documents exactly the answers of the contract", () => {
    expect([...documentedAnswers.keys()].sort()).toEqual(Object.keys(answers).sort());
    for (const [key, schema] of Object.entries(answers)) {
      expect(documentedAnswers.get(key), key).toEqual(documented(schema, "output"));
    }
  });

  it("says every API operation answers failures with the contract's problem document", () => {
    expect(problemSchema).toEqual(documented(problemDocument, "output"));
    expect(problemSchema).toEqual(problemJsonSchema());
    expect(problemAnswers.size).toBeGreaterThan(50);
    for (const [route, schema] of problemAnswers)
      expect(schema, route).toEqual({ $ref: "#/components/schemas/Problem" });
  });

  it("documents exactly the request bodies of the contract", () => {
    expect([...documentedBodies.keys()].sort()).toEqual(Object.keys(bodies).sort());
    for (const [key, schema] of Object.entries(bodies)) {
      expect(documentedBodies.get(key), key).toEqual(documented(schema, "input"));
    }
  });
});
