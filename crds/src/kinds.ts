/**
 * The eight kinds, in the order a working set is usually created.
 */
import { ConfigurationPlan } from "./kinds/configuration-plan.ts";
import { CustomTools } from "./kinds/custom-tools.ts";
import { Exposition } from "./kinds/exposition.ts";
import { GatewayGroup } from "./kinds/gateway-group.ts";
import { Prompts } from "./kinds/prompts.ts";
import { Resources } from "./kinds/resources.ts";
import { SecretSource } from "./kinds/secret-source.ts";
import { Service } from "./kinds/service.ts";

export const kinds = [
  Service,
  GatewayGroup,
  SecretSource,
  ConfigurationPlan,
  Exposition,
  CustomTools,
  Resources,
  Prompts,
] as const;

export type AtriumKind = (typeof kinds)[number]["kind"];

/** The definition of a kind by name, or undefined for a kind Atrium does not have (e.g. `Resource`). */
export function kindNamed(name: string) {
  return kinds.find((kind) => kind.kind === name);
}
