/**
 * Large schemas. A real-world one: GitHub's public GraphQL schema as @octokit/graphql-schema
 * ships it (SDL and introspection JSON), imported through the worker under the import limits,
 * every tool schema compiling under a strict JSON Schema 2020-12 validator; each plan selection
 * depth either builds within the fields budget or is refused in words. And 10,000 Query fields,
 * imported within the limits while the event loop stays free. The figures printed are the ones
 * docs/services.md and docs/api.md report.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { schema as github } from "@octokit/graphql-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { importOpenApi } from "../openapi/import.ts";
import { operationsAtDepth, SelectionDepthRefused } from "./plan-depth.ts";

const sdl = github.idl;
const introspection = JSON.stringify(github.json);

function figures(label: string, values: Record<string, unknown>): void {
  console.info(`github schema, ${label}: ${JSON.stringify(values)}`);
}

describe("GitHub's public GraphQL schema", () => {
  it("imports its SDL within the limits, every tool schema compiling under Ajv2020", async () => {
    const started = performance.now();
    const imported = await importOpenApi({ text: sdl }, { kind: "graphql" });
    const seconds = (performance.now() - started) / 1000;
    const queries = imported.operations.filter((op) => op.graphql?.operationType === "query").length;
    figures("SDL", {
      bytes: Buffer.byteLength(sdl),
      tools: imported.operations.length,
      queries,
      mutations: imported.operations.length - queries,
      warnings: imported.warnings.map((warning) => warning.code),
      storedBytes: Buffer.byteLength(JSON.stringify(imported)),
      seconds: Number(seconds.toFixed(2)),
    });
    expect(queries).toBeGreaterThan(20);
    expect(imported.operations.length - queries).toBeGreaterThan(200);
    const ajv = new Ajv2020();
    for (const operation of imported.operations) {
      ajv.compile(operation.requestBody?.schema ?? {});
      ajv.compile(operation.responses[0]?.schema ?? {});
    }

    const service = { id: "github", updatedAt: new Date(), document: imported };
    for (const depth of [1, 3, 4, 5]) {
      const depthStarted = performance.now();
      try {
        const operations = operationsAtDepth(service, imported.operations, depth);
        const documentBytes = operations.reduce((sum, op) => sum + (op.graphql?.document.length ?? 0), 0);
        figures(`depth ${depth}`, { documentBytes, ms: Math.round(performance.now() - depthStarted) });
        for (const operation of operations) ajv.compile(operation.responses[0]?.schema ?? {});
      } catch (error) {
        expect(error).toBeInstanceOf(SelectionDepthRefused);
        figures(`depth ${depth}`, {
          refused: (error as Error).message,
          ms: Math.round(performance.now() - depthStarted),
        });
      }
    }
  }, 120_000);

  it("imports its introspection JSON", async () => {
    const started = performance.now();
    const imported = await importOpenApi({ text: introspection }, { kind: "graphql" });
    figures("introspection JSON", {
      bytes: Buffer.byteLength(introspection),
      tools: imported.operations.length,
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    });
    expect(imported.operations.length).toBeGreaterThan(200);
  }, 120_000);
});

describe("a schema of 10,000 fields", () => {
  it("imports within the limits, the event loop kept free", async () => {
    const queries = Array.from(
      { length: 10_000 },
      (_, q) => `  "Query ${q}."\n  q${q}(id: ID!, first: Int = 10): Item`,
    );
    const text = `type Item {\n  id: ID!\n  name: String\n  tags: [String!]!\n}\ntype Query {\n${queries.join("\n")}\n}\n`;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const imported = await importOpenApi({ text }, { kind: "graphql" });
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    const maxDelayMs = delay.max / 1e6;
    figures("10,000 fields", { tools: imported.operations.length, seconds, maxDelayMs });
    expect(imported.operations).toHaveLength(10_000);
    // Off the event loop: only the worker's answer is read on it (the import itself takes seconds).
    expect(maxDelayMs).toBeLessThan(1_000);
  }, 120_000);
});
