/**
 * `atrium gateway-group` (label selectors that Expositions target) and `atrium gateway`
 * (the registered gateways and their health).
 */
import type { Command } from "commander";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { labelPair, positiveInteger, withExample } from "./options.ts";

interface GatewayGroupView {
  id: number;
  name: string;
  description?: string;
  labels?: Record<string, string>;
  matchExpressions?: unknown[];
  createdAt: string;
  updatedAt: string;
}
interface GatewayView {
  id: string;
  fqdns: string[];
  labels: Record<string, string>;
  version: string | null;
  health: "UP" | "STALE";
  registeredAt: string;
  lastSeenAt: string;
}

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
  const group = program
    .command("gateway-group")
    .description("manage Gateway Groups: sets of gateways chosen by the labels they advertise");
  withExample(group, "atrium gateway-group create production --label env=prod");

  const create = group
    .command("create")
    .description("create a Gateway Group selecting gateways by label (no label selects every gateway)")
    .argument("<name>", "group name: lowercase letters, digits, '-' or '.'")
    .option("--label <key=value>", "a label the gateways must advertise; repeat for several", labelPair)
    .option("--description <text>", "what the group's gateways serve")
    .action(
      async (name: string, options: { label?: Record<string, string>; description?: string }, command: Command) => {
        const { api } = context.session(command);
        const created = await api.post<GatewayGroupView>("/gateway-groups", {
          name,
          labels: options.label ?? {},
          ...(options.description ? { description: options.description } : {}),
        });
        context.print(command, created);
      },
    );
  withExample(
    create,
    "atrium gateway-group create production --label env=prod --label region=eu --description 'EU production gateways'",
  );

  const list = group
    .command("list")
    .description("list Gateway Groups")
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      const { items } = await api.get<{ items: GatewayGroupView[] }>("/gateway-groups");
      context.print(command, items, {
        columns: GROUP_COLUMNS,
        empty: "No gateway groups: create one with `atrium gateway-group create`.",
      });
    });
  withExample(list, "atrium gateway-group list");

  const get = group
    .command("get")
    .description("show a Gateway Group")
    .argument("<group_id>", "Gateway Group id (an integer)", positiveInteger)
    .action(async (id: number, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      context.print(command, await api.get<GatewayGroupView>(`/gateway-groups/${segment(id)}`));
    });
  withExample(get, "atrium gateway-group get 1");

  const remove = group
    .command("delete")
    .description("delete a Gateway Group (its Expositions must be deleted first)")
    .argument("<group_id>", "Gateway Group id (an integer)", positiveInteger)
    .action(async (id: number, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      await api.delete(`/gateway-groups/${segment(id)}`);
      context.print(command, { id, deleted: true }, { message: `Deleted gateway group ${id}.` });
    });
  withExample(remove, "atrium gateway-group delete 1");

  const gateway = program.command("gateway").description("see the gateways registered with the control plane");
  withExample(gateway, "atrium gateway list");

  const gateways = gateway
    .command("list")
    .description("list registered gateways with their health (UP, or STALE after 5 minutes without a report)")
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      const { items } = await api.get<{ items: GatewayView[] }>("/gateways");
      context.print(command, items, {
        columns: GATEWAY_COLUMNS,
        empty: "No gateways have registered: start one with an API token (`atrium api-token create`).",
      });
    });
  withExample(gateways, "atrium gateway list", "atrium gateway list --output json");
}
