/**
 * `atrium expo`: Expositions, a Configuration Plan published on a Gateway Group. Its
 * ENDPOINTS are the FQDNs of the live gateways the group selects; its PROBLEMS, the gateways
 * that received it but do not serve it, and why. `expo get` adds its TOOLS as clients see them
 * (GET /expositions/{id}/tools), each with its ARGUMENTS (the effective inputSchema's properties,
 * required ones marked `*`): the full view, whole schemas included, with `--output json` or yaml.
 */
import {
  type ExpositionBody,
  type ExpositionToolView,
  expositionToolsView,
  expositionView,
  planView,
} from "@atrium/contract/rest";
import type { Command } from "commander";
import type { z } from "zod";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { commandGroup, positiveInteger, withExample } from "./options.ts";
import { deleteCommand, listCommand } from "./records.ts";

/** The contract's view; `problems` is absent from control planes that predate problem reports. */
const exposition = expositionView.partial({ problems: true });
type ExpositionView = z.output<typeof exposition>;
const EXPOSITION_ID = { name: "exposition_id", description: "Exposition id" };

const groupText = (e: ExpositionView) => `${e.gatewayGroup.name} (${e.gatewayGroup.id})`;
const endpointsText = (e: ExpositionView) =>
  e.endpoints.length > 0 ? e.endpoints.join(", ") : "(none yet: no live gateway in the group)";

const problemsText = (e: ExpositionView) =>
  e.problems?.length
    ? e.problems.map((problem) => `${problem.gatewayId}: ${problem.message} (since ${problem.at})`).join("\n")
    : "(none)";

const LIST_COLUMNS: Column<ExpositionView>[] = [
  "id",
  "name",
  { header: "CONFIGURATION PLAN", value: (e) => e.configurationPlanId },
  { header: "GATEWAY GROUP", value: groupText },
  { header: "ENDPOINTS", value: (e) => e.endpoints },
];
const RECORD_ROWS: Column<ExpositionView>[] = [
  "id",
  "name",
  { header: "CONFIGURATION PLAN", value: (e) => e.configurationPlanId },
  { header: "GATEWAY GROUP", value: groupText },
  { header: "ENDPOINTS", value: endpointsText },
  { header: "MCP PATH", value: (e) => `/mcp/${e.id}` },
  { header: "PROBLEMS", value: problemsText },
  "createdAt",
];

/**
 * A tool's arguments as clients see them: `petId*,q` (required ones marked `*`), `-` when it takes
 * none, `?` when the control plane shows no inputSchema (one that predates it, or a tool gateways leave out).
 */
function argumentsText({ inputSchema }: ExpositionToolView): string {
  if (!inputSchema) return "?";
  const { properties, required } = inputSchema;
  const names = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  const needed = new Set(Array.isArray(required) ? required : []);
  return names.length === 0 ? "-" : names.map((name) => (needed.has(name) ? `${name}*` : name)).join(",");
}

/** One line per tool: its name, the Service's tool it comes from, its arguments, whether it is filtered, its budget. */
const toolsText = (tools: ExpositionToolView[]) =>
  tools.length === 0
    ? "(none)"
    : [
        "NAME  FROM  ARGUMENTS  FILTER  BUDGET",
        ...tools.map(
          (tool) =>
            `${tool.name}  ${tool.from}  ${argumentsText(tool)}  ${tool.filter ? "yes" : "no"}  ${tool.maxResultBytes === undefined ? "-" : `${tool.maxResultBytes} B`}`,
        ),
      ].join("\n");
type ExpositionWithTools = ExpositionView & { tools: ExpositionToolView[] };
const GET_ROWS: Column<ExpositionWithTools>[] = [
  ...(RECORD_ROWS as Column<ExpositionWithTools>[]),
  { header: "TOOLS", value: (e) => toolsText(e.tools) },
];

interface CreateOptions {
  configuration: string;
  gatewayGroup: number;
  name?: string;
}

export function registerExpositionCommands(program: Command, context: CliContext): void {
  const expo = commandGroup(
    program,
    "expo",
    "manage Expositions: a Configuration Plan published on a Gateway Group",
    "atrium expo create --configuration <plan_id> --gateway-group 1",
  );

  const create = expo
    .command("create")
    .description("publish a Configuration Plan on a Gateway Group")
    .requiredOption("--configuration <plan_id>", "Configuration Plan id (`atrium config list`)")
    .requiredOption(
      "--gateway-group <group_id>",
      "Gateway Group id, an integer (`atrium gateway-group list`)",
      positiveInteger,
    )
    .option("--name <name>", "name in the MCP path /mcp/<organization>/<name> (default: the plan's name)")
    .action(async (options: CreateOptions, command: Command) => {
      const { api } = context.session(command);
      const name =
        options.name ??
        (await api.get(`/configuration-plans/${segment(options.configuration)}`, planView.pick({ name: true }))).name;
      const created = await api.post(
        "/expositions",
        {
          name,
          configurationPlanId: options.configuration,
          gatewayGroupId: options.gatewayGroup,
        } satisfies ExpositionBody,
        exposition,
      );
      context.print(command, created, { columns: RECORD_ROWS });
    });
  withExample(
    create,
    "atrium expo create --configuration 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --gateway-group 1",
    "atrium expo create --configuration <plan_id> --gateway-group 2 --name petstore-eu --output json",
  );

  const get = expo
    .command("get")
    .description(
      "show an Exposition with its Gateway Group, ENDPOINTS, the PROBLEMS gateways reported and its TOOLS as " +
        "clients see them (name, the Service's tool it comes FROM, ARGUMENTS with the required ones marked *, " +
        "FILTER yes/no, BUDGET); --output json adds each tool's title, description, annotations, effective " +
        "inputSchema (fixed arguments dropped), fixed arguments, filter and derived outputSchema",
    )
    .argument(`<${EXPOSITION_ID.name}>`, EXPOSITION_ID.description)
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      const record = await api.get(`/expositions/${segment(id)}`, exposition);
      const { items } = await api.get(`/expositions/${segment(id)}/tools`, expositionToolsView);
      context.print(command, { ...record, tools: items }, { columns: GET_ROWS });
    });
  withExample(
    get,
    "atrium expo get 0b7e2d4c-5f6a-4e8b-9c1d-2a3b4c5d6e7f",
    "atrium expo get 0b7e2d4c-5f6a-4e8b-9c1d-2a3b4c5d6e7f --output json",
  );
  listCommand(expo, context, {
    description: "list Expositions",
    path: "/expositions",
    view: exposition,
    columns: LIST_COLUMNS,
    empty: "No expositions: create one with `atrium expo create`.",
    examples: ["atrium expo list"],
  });
  deleteCommand(expo, context, {
    description: "delete an Exposition; gateways stop serving it",
    path: "/expositions",
    id: EXPOSITION_ID,
    done: (id) => `Deleted exposition ${id}.`,
    examples: ["atrium expo delete 0b7e2d4c-5f6a-4e8b-9c1d-2a3b4c5d6e7f"],
  });
}
