/**
 * `atrium expo`: Expositions, a Configuration Plan published on a Gateway Group. Its
 * ENDPOINTS are the FQDNs of the live gateways the group selects; its PROBLEMS, the gateways
 * that received it but do not serve it, and why.
 */
import type { Command } from "commander";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { positiveInteger, withExample } from "./options.ts";

interface ExpositionView {
  id: string;
  name: string;
  configurationPlanId: string;
  gatewayGroupId: number;
  gatewayGroup: { id: number; name: string };
  endpoints: string[];
  /** Absent from control planes that predate problem reports. */
  problems?: { gatewayId: string; message: string; at: string }[];
  createdAt: string;
  updatedAt: string;
}

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

interface CreateOptions {
  configuration: string;
  gatewayGroup: number;
  name?: string;
}

export function registerExpositionCommands(program: Command, context: CliContext): void {
  const expo = program
    .command("expo")
    .description("manage Expositions: a Configuration Plan published on a Gateway Group");
  withExample(expo, "atrium expo create --configuration <plan_id> --gateway-group 1");

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
        (await api.get<{ name: string }>(`/configuration-plans/${segment(options.configuration)}`)).name;
      const created = await api.post<ExpositionView>("/expositions", {
        name,
        configurationPlanId: options.configuration,
        gatewayGroupId: options.gatewayGroup,
      });
      context.print(command, created, { columns: RECORD_ROWS });
    });
  withExample(
    create,
    "atrium expo create --configuration 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --gateway-group 1",
    "atrium expo create --configuration <plan_id> --gateway-group 2 --name petstore-eu --output json",
  );

  const get = expo
    .command("get")
    .description("show an Exposition with its Gateway Group, ENDPOINTS and the PROBLEMS gateways reported")
    .argument("<exposition_id>", "Exposition id")
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      context.print(command, await api.get<ExpositionView>(`/expositions/${segment(id)}`), { columns: RECORD_ROWS });
    });
  withExample(get, "atrium expo get 0b7e2d4c-5f6a-4e8b-9c1d-2a3b4c5d6e7f");

  const list = expo
    .command("list")
    .description("list Expositions")
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      const { items } = await api.get<{ items: ExpositionView[] }>("/expositions");
      context.print(command, items, {
        columns: LIST_COLUMNS,
        empty: "No expositions: create one with `atrium expo create`.",
      });
    });
  withExample(list, "atrium expo list");

  const remove = expo
    .command("delete")
    .description("delete an Exposition; gateways stop serving it")
    .argument("<exposition_id>", "Exposition id")
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      await api.delete(`/expositions/${segment(id)}`);
      context.print(command, { id, deleted: true }, { message: `Deleted exposition ${id}.` });
    });
  withExample(remove, "atrium expo delete 0b7e2d4c-5f6a-4e8b-9c1d-2a3b4c5d6e7f");
}
