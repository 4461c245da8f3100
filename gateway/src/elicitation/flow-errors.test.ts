/**
 * The control plane's refusals and outages during the elicitation flow reach the client as MCP
 * errors in words (the endpoint's 500 otherwise), with real errors of the REST client.
 */
import { RestProblemError, RestUnreachableError } from "@atrium/contract/rest-client";
import { describe, expect, it } from "vitest";
import { TOO_MANY_CALLS } from "../mcp/overload.ts";
import { ERROR, McpError } from "../mcp/protocol.ts";
import { fromControlPlane } from "./flow.ts";

const problem = (status: number, detail: string) =>
  new RestProblemError("POST", "/api/v1/elicitations", status, { type: "about:blank", title: "t", status, detail }, "");

async function refusal(error: Error): Promise<McpError> {
  const caught = await fromControlPlane(Promise.reject(error)).catch((thrown: unknown) => thrown);
  expect(caught).toBeInstanceOf(McpError);
  return caught as McpError;
}

describe("fromControlPlane", () => {
  it("passes answers through, and turns a 429 into -32010 with its reason and an outage into a 503", async () => {
    expect(await fromControlPlane(Promise.resolve("key"))).toBe("key");
    const busy = await refusal(problem(429, "This user has 20 pending elicitations on Exposition 'x'"));
    expect(busy).toMatchObject({ code: TOO_MANY_CALLS, httpStatus: 429 });
    expect(busy.message).toContain("This user has 20 pending elicitations");
    const down = await refusal(new RestUnreachableError("connect ECONNREFUSED", { codes: ["ECONNREFUSED"] }));
    expect(down).toMatchObject({ code: ERROR.internal, httpStatus: 503 });
    expect(down.message).toContain("could not reach the control plane");
    expect((await refusal(problem(500, "boom"))).httpStatus).toBe(503);
    const own = new McpError(ERROR.invalidParams, "bad state", 400);
    expect(await refusal(own)).toBe(own);
  });
});
