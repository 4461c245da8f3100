/**
 * The rows of docs/reliability.md: one per fuzz target or fault, each with the command that
 * reproduces it. A test records its row's figures under the row's id (figures.ts); the report
 * (report.ts) writes the table from the last recorded figures of every row.
 */
export interface ReliabilityRow {
  /** Stable id: what a test passes to recordFigures. */
  id: string;
  /** fuzz: generated input; fault: an injected failure; scan: a check over a whole test run. */
  kind: "fuzz" | "fault" | "scan";
  /** What is tried, in a few words. */
  title: string;
  /** The command that reproduces the row from the repository root. */
  command: string;
}

/** `npx vitest run <file>` after `. hack/env.sh`: the one way every row is reproduced. */
const run = (file: string, env = "") => `${env ? `${env} ` : ""}npx vitest run ${file}`;

export const ROWS = [
  {
    id: "fuzz-request-building",
    kind: "fuzz",
    title: "Tool arguments → backend request (URL under the base path, no CR/LF in headers)",
    command: run("gateway/src/tools/request.fuzz.test.ts", "ATRIUM_FUZZ_SEED=random ATRIUM_FUZZ_RUNS=100000"),
  },
  {
    id: "fuzz-mcp-endpoint",
    kind: "fuzz",
    title: "MCP endpoint, both eras: generated JSON-RPC messages, batches, headers",
    command: run("gateway/src/mcp/endpoint.fuzz.test.ts", "ATRIUM_FUZZ_SEED=random ATRIUM_FUZZ_RUNS=100000"),
  },
  {
    id: "fuzz-openapi-import",
    kind: "fuzz",
    title: "OpenAPI importer: generated 3.0/3.1 documents, JSON and YAML; what it accepts a gateway loads",
    command: run("gateway/src/tools/imported-document.fuzz.test.ts", "ATRIUM_FUZZ_SEED=random ATRIUM_FUZZ_RUNS=100000"),
  },
  {
    id: "fuzz-rest-bodies",
    kind: "fuzz",
    title: "Control plane REST API: generated bodies on every write route; a refused write changes nothing",
    command: run("control-plane/src/rest-bodies.fuzz.test.ts", "ATRIUM_FUZZ_SEED=random ATRIUM_FUZZ_RUNS=100000"),
  },
  {
    id: "secrets-in-logs",
    kind: "scan",
    title: "Secrets never logged: every secret a test run made, searched in every log of the run (global teardown)",
    command: "npx vitest run",
  },
  {
    id: "fault-control-plane-restart",
    kind: "fault",
    title: "Control plane SIGKILLed, restarted under steady tool calls (both eras): 0 failed, gateway resyncs",
    command: run("reliability/src/faults/control-plane-restart.test.ts"),
  },
  {
    id: "fault-postgres-restart",
    kind: "fault",
    title: "PostgreSQL stopped (fast, immediate), restarted under writes: 503, no restart, none lost or half-applied",
    command: run("reliability/src/faults/postgres-restart.test.ts"),
  },
  {
    id: "fault-change-stream-cut",
    kind: "fault",
    title: "Change stream cut mid-message (snapshot, changes): never half-applied, backoff, converges",
    command: run("reliability/src/faults/change-stream-cut.test.ts"),
  },
  {
    id: "fault-hanging-backend",
    kind: "fault",
    title: "A backend that never answers: 200 tool calls get the gateway's 504 within the timeout, no socket left",
    command: run("reliability/src/faults/hanging-backend.test.ts"),
  },
  {
    id: "fault-backend-answers",
    kind: "fault",
    title: "Backends that reset, answer broken JSON or 1 GB: a clear tool result each, the read cap holds, RSS bounded",
    command: run("reliability/src/faults/backend-answers.test.ts"),
  },
  {
    id: "fault-concurrent-sessions",
    kind: "fault",
    title: "1,000 concurrent 2025 sessions (official SDK client): initialize, tools/list, a call, delete",
    command: run("reliability/src/faults/concurrent-sessions.test.ts"),
  },
] as const satisfies readonly ReliabilityRow[];

export type RowId = (typeof ROWS)[number]["id"];
