/**
 * `atrium gateway-group` (label selectors that Expositions target) and `atrium gateway`
 * (the registered gateways and their health).
 */
import {
  type GatewayGroupBody,
  type GatewayGroupView,
  type GatewayView,
  gatewayGroupView,
  gatewayView,
} from "@atrium/contract/rest";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { commandGroup, labelPair, positiveInteger, withExample } from "./options.ts";
import { deleteCommand, getCommand, listCommand } from "./records.ts";

const GROUP_ID = { name: "group_id", description: "Gateway Group id (an integer)", parse: positiveInteger };

const GROUP_COLUMNS: Column<GatewayGroupView>[] = [
  "id",
  "name",
  { header: "LABELS", value: (g) => g.labels },
  "description",
];
const GATEWAY_COLUMNS: Column<GatewayView>[] = [
  "id",
  { header: "FQDNS", value: (g) => g.fqdns },
  "labels",
  "version",
  "health",
  { header: "LAST SEEN", value: (g) => g.lastSeenAt },
];

export function registerGatewayCommands(program: Command, context: CliContext): void {
  const group = commandGroup(
    program,
    "gateway-group",
    "manage Gateway Groups: sets of gateways chosen by the labels they advertise",
    "atrium gateway-group create production --label env=prod",
  );

  const create = group
    .command("create")
    .description("create a Gateway Group selecting gateways by label (no label selects every gateway)")
    .argument("<name>", "group name: lowercase letters, digits, '-' or '.'")
    .option("--label <key=value>", "a label the gateways must advertise; repeat for several", labelPair)
    .option("--description <text>", "what the group's gateways serve")
    .action(
      async (name: string, options: { label?: Record<string, string>; description?: string }, command: Command) => {
        const { api } = context.session(command);
        const created = await api.post(
          "/gateway-groups",
          {
            name,
            labels: options.label ?? {},
            ...(options.description ? { description: options.description } : {}),
          } satisfies GatewayGroupBody,
          gatewayGroupView,
        );
        context.print(command, created);
      },
    );
  withExample(
    create,
    "atrium gateway-group create production --label env=prod --label region=eu --description 'EU production gateways'",
  );

  listCommand(group, context, {
    description: "list Gateway Groups",
    path: "/gateway-groups",
    view: gatewayGroupView,
    columns: GROUP_COLUMNS,
    empty: "No gateway groups: create one with `atrium gateway-group create`.",
    examples: ["atrium gateway-group list"],
  });
  getCommand(group, context, {
    description: "show a Gateway Group",
    path: "/gateway-groups",
    view: gatewayGroupView,
    id: GROUP_ID,
    examples: ["atrium gateway-group get 1"],
  });
  deleteCommand(group, context, {
    description: "delete a Gateway Group (its Expositions must be deleted first)",
    path: "/gateway-groups",
    id: GROUP_ID,
    done: (id) => `Deleted gateway group ${id}.`,
    examples: ["atrium gateway-group delete 1"],
  });

  const gateway = commandGroup(
    program,
    "gateway",
    "see the gateways registered with the control plane",
    "atrium gateway list",
  );

  listCommand(gateway, context, {
    description: "list registered gateways with their health (UP, or STALE after 5 minutes without a report)",
    path: "/gateways",
    view: gatewayView,
    columns: GATEWAY_COLUMNS,
    empty: "No gateways have registered: start one with an API token (`atrium api-token create`).",
    examples: ["atrium gateway list", "atrium gateway list --output json"],
  });
}
