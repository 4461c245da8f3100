/** Helpers for the unit tests of the MCP layer. */
import { expect } from "vitest";
import { ERROR, McpError } from "./protocol.ts";

/** The message of the invalid-params refusal (-32602, HTTP 400) `run` throws; fails when it throws none. */
export function invalidParamsMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ERROR.invalidParams);
    expect((error as McpError).httpStatus).toBe(400);
    return (error as McpError).message;
  }
  throw new Error("not refused");
}

/** An OpenAPI path item, `GET /wait?ms=` (`wait`), for stack tests whose backend answers when asked. */
export const WAIT_PATH = {
  get: {
    operationId: "wait",
    summary: "Answers after `ms` milliseconds",
    parameters: [{ name: "ms", in: "query", required: true, schema: { type: "integer", minimum: 0, maximum: 5000 } }],
    responses: { "200": { description: "ok", content: { "text/plain": {} } } },
  },
};
