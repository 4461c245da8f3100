/** A plan's toolOverrides and result budget in a few words, for `atrium config get`. */
import type { PlanView } from "@atrium/contract/rest";

/** `getPet → get_pet (described; fixed petId; 16384 bytes)`, one tool after another by name; `none`. */
export function toolOverridesText({ toolOverrides }: PlanView): string {
  const entries = Object.entries(toolOverrides ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return "none";
  return entries
    .map(([tool, override]) => {
      const changes = [
        ...(override.title !== undefined ? ["titled"] : []),
        ...(override.description !== undefined ? ["described"] : []),
        ...(override.annotations !== undefined ? ["annotated"] : []),
        ...(override.fixedArguments ? [`fixed ${Object.keys(override.fixedArguments).join(", ")}`] : []),
        ...(override.maxResultBytes !== undefined ? [`${override.maxResultBytes} bytes`] : []),
      ];
      const name = override.name !== undefined && override.name !== tool ? `${tool} → ${override.name}` : tool;
      return changes.length > 0 ? `${name} (${changes.join("; ")})` : name;
    })
    .join(", ");
}

export function maxResultBytesText({ maxResultBytes }: PlanView): string {
  return maxResultBytes === undefined ? "none" : `${maxResultBytes} bytes per result`;
}
