/**
 * The write-time checks of a plan's toolOverrides that need its Service: each names a tool the
 * plan has (named as gateways name them, @atrium/contract/tool-names), renames collide with no
 * other tool, and each fixed argument is one of the tool's, with a value its schema accepts.
 * Gateways check the same again when they compile the tools (fail closed), so a Service
 * re-imported since the write cannot widen a tool.
 *
 * Arguments are named as tools/list shows them: a parameter under its own name, the request
 * body as `body`; a GraphQL operation's and a gRPC method's arguments are its request body's
 * members (its variables, its request message's fields), as custom tools' are their inputSchema's.
 * (An argument the gateway renamed to tell two apart, `query_id`, is not known here; the gateway
 * checks it.)
 */
import type { NormalizedOperation, PlanSettings } from "@atrium/contract";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { FieldError } from "../errors.ts";
import type { Tx } from "../stream/changes.ts";
import { planToolsOf } from "./plan-tools.ts";

type Schema = Record<string, unknown>;
/** How an argument's value is judged: as member `key` of an object, against `schema` (with the tool's `$defs`). */
type ArgumentCheck = { schema: Schema; key: string } | undefined;
/** A tool the plan has, with its arguments by name. */
type PlanTool = { arguments: Map<string, ArgumentCheck> };

/** What is wrong with the plan's toolOverrides, located at `body.toolOverrides.…`; [] when nothing. */
export async function toolOverrideProblems(
  tx: Tx,
  organizationId: string,
  service: { id: string; operations: NormalizedOperation[] },
  plan: Pick<PlanSettings, "toolOverrides" | "includedOperations" | "excludedOperations">,
): Promise<FieldError[]> {
  const overrides = plan.toolOverrides;
  if (!overrides || Object.keys(overrides).length === 0) return [];
  const tools = await planTools(tx, organizationId, service, plan);
  const problems: FieldError[] = [];
  // One ajv per write: it keeps what it compiled, and these schemas are seen once.
  const ajv = new Ajv2020({ strict: false, logger: false, validateFormats: false });
  const at = (...path: string[]) => ["body.toolOverrides", ...path].join(".");

  const finalNames = new Map<string, string>();
  for (const name of tools.keys()) {
    const renamed = Object.hasOwn(overrides, name) ? overrides[name]?.name : undefined;
    finalNames.set(name, renamed ?? name);
  }
  for (const [name, override] of Object.entries(overrides)) {
    const tool = tools.get(name);
    if (!tool) {
      const known = [...tools.keys()];
      problems.push({
        field: at(name),
        message: `no tool is named ${name} on this plan; its tools are ${known.slice(0, 50).join(", ")}${known.length > 50 ? ", …" : ""}`,
      });
      continue;
    }
    if (override.name !== undefined && override.name !== name) {
      const taken = [...finalNames].find(([other, final]) => other !== name && final === override.name);
      if (taken)
        problems.push({
          field: at(name, "name"),
          message: `${override.name} is the name of tool ${taken[0]} too: tool names must stay unique`,
        });
    }
    for (const [argument, value] of Object.entries(override.fixedArguments ?? {})) {
      if (!tool.arguments.has(argument)) {
        problems.push({
          field: at(name, "fixedArguments", argument),
          message: `${name} has no argument ${argument}; its arguments are ${[...tool.arguments.keys()].join(", ") || "none"}`,
        });
        continue;
      }
      const problem = valueProblem(ajv, tool.arguments.get(argument), value);
      if (problem) problems.push({ field: at(name, "fixedArguments", argument), message: problem });
    }
  }
  return problems;
}

/** The plan's tools by their names before overrides: its included operations and the Service's custom tools. */
async function planTools(
  tx: Tx,
  organizationId: string,
  service: { id: string; operations: NormalizedOperation[] },
  plan: Pick<PlanSettings, "includedOperations" | "excludedOperations">,
): Promise<Map<string, PlanTool>> {
  const { customTools, operations } = await planToolsOf(tx, organizationId, service, plan);
  const tools = new Map<string, PlanTool>();
  for (const { name, tool } of customTools) tools.set(name, { arguments: memberChecks(tool.inputSchema) });
  for (const { name, operation: op } of operations) {
    // The gateway's body-arguments.ts: the request body's members are the tool's arguments.
    if (op.graphql || op.grpc) {
      tools.set(name, { arguments: memberChecks(op.requestBody?.schema) });
      continue;
    }
    const argumentSchemas = new Map<string, ArgumentCheck>();
    for (const parameter of op.parameters)
      if (parameter.in !== "cookie") argumentSchemas.set(parameter.name, wrap(parameter.schema));
    if (op.requestBody) argumentSchemas.set("body", wrap(op.requestBody.schema));
    tools.set(name, { arguments: argumentSchemas });
  }
  return tools;
}

/** The members of an object schema as arguments, each judged alone (with the schema's `$defs`). */
function memberChecks(schema: Schema | undefined): Map<string, ArgumentCheck> {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const $defs = schema?.$defs;
  return new Map(
    Object.keys(properties).map((argument) => [
      argument,
      {
        schema: { type: "object", properties: { [argument]: properties[argument] }, ...($defs ? { $defs } : {}) },
        key: argument,
      },
    ]),
  );
}

/** An operation argument's schema as the object schema of one member `value`, its `$defs` at the root. */
function wrap(schema: Schema | undefined): ArgumentCheck {
  if (!schema) return undefined;
  const { $defs, ...rest } = schema;
  return { schema: { type: "object", properties: { value: rest }, ...($defs ? { $defs } : {}) }, key: "value" };
}

function valueProblem(ajv: Ajv2020, check: ArgumentCheck, value: unknown): string | undefined {
  if (!check) return undefined;
  let validate: ReturnType<Ajv2020["compile"]>;
  try {
    validate = ajv.compile(check.schema);
  } catch {
    return undefined; // a schema ajv cannot compile here is the gateway's to judge
  }
  if (validate({ [check.key]: value })) return undefined;
  const error = validate.errors?.[0];
  const where = error?.instancePath.replace(/^\/[^/]*/, "") ?? "";
  return `the value does not match the argument's schema: ${where ? `${where} ` : ""}${error?.message ?? "invalid"}`;
}
