/**
 * A plan's curation of its tools (toolOverrides) and the budget of their results
 * (maxResultBytes): what the model sees and how much it is sent, without a new Service version.
 */
import { z } from "zod";
import type { ObjectRule } from "../rules.ts";
import { withRules } from "../rules.ts";
import { toolAnnotations, toolName } from "./custom-tools.ts";

/** The smallest budget: room for the gateway's own notice that an answer did not fit. */
export const MIN_RESULT_BYTES = 1024;
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;

export const maxResultBytes = z
  .number()
  .int()
  .min(MIN_RESULT_BYTES)
  .max(MAX_RESULT_BYTES)
  .describe(
    "Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, " +
      "structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the " +
      "longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) " +
      "and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError " +
      "result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError " +
      "result saying so. Applies to backend answers, after the output filter; no budget when absent.",
  );

/** An argument name as tools/list shows it (naming.ts of the gateway: 1-64 of letters, digits, '_', '-', '.'). */
const argumentName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, { message: "must be an argument name: 1-64 letters, digits, '_', '-' or '.'" });

export const toolOverride = withRules(
  z.object({
    name: toolName.optional().describe("The name clients see instead; unique among the plan's tools."),
    title: z.string().min(1).max(256).optional().describe("Human-readable title (also annotations.title)."),
    description: z.string().min(1).max(8192).optional().describe("What the tool does, written for the model."),
    annotations: toolAnnotations
      .optional()
      .describe("MCP tool annotations: each hint given replaces the tool's own, the others stay."),
    fixedArguments: z
      .record(argumentName, z.unknown())
      .optional()
      .describe(
        "Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and " +
          "every call sends this value; a call that sets it is refused. Each value must match the argument's schema.",
      ),
    maxResultBytes: maxResultBytes.optional().describe("This tool's result budget, instead of the plan's."),
  }),
  [
    {
      message:
        "set name, title, description, annotations, fixedArguments or maxResultBytes: an empty override changes nothing",
      path: [],
      cel:
        "has(self.name) || has(self.title) || has(self.description) || has(self.annotations) || " +
        "has(self.fixedArguments) || has(self.maxResultBytes)",
      holds: (override) => Object.values(override).some((value) => value !== undefined),
    },
  ],
).describe("What one tool shows and sends, on this plan.");

export const toolOverrides = z
  .record(toolName, toolOverride)
  .describe(
    "Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, " +
      "description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as " +
      "clients see it (after a rename).",
  );

function entries(value: unknown): [string, Record<string, unknown>][] {
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value as Record<string, unknown>).filter(
    (entry): entry is [string, Record<string, unknown>] => entry[1] !== null && typeof entry[1] === "object",
  );
}

/** The renames of a plan's toolOverrides: tool name → new name. */
export function toolRenames(overrides: unknown): Map<string, string> {
  const renames = new Map<string, string>();
  for (const [tool, override] of entries(overrides)) {
    if (typeof override.name === "string" && override.name !== tool) renames.set(tool, override.name);
  }
  return renames;
}

/** Plan rules about renames that need no Service: two tools renamed alike, and per-tool settings naming an old name. */
export const toolOverrideRules: readonly ObjectRule[] = [
  {
    whyNotCel: "comparing the values of a map without a size limit exceeds the API server's CEL cost limit",
    violations: (plan) => {
      const problems: { path: readonly PropertyKey[]; message: string }[] = [];
      const renames = toolRenames(plan.toolOverrides);
      const claimed = new Map<string, string>();
      for (const [tool, name] of renames) {
        const first = claimed.get(name);
        if (first !== undefined)
          problems.push({
            path: ["toolOverrides", tool, "name"],
            message: `${tool} and ${first} are both renamed ${name}: tool names must stay unique`,
          });
        else claimed.set(name, tool);
      }
      const scoped: [readonly string[], unknown][] = [
        [["oauth", "toolScopes"], (plan.oauth as Record<string, unknown> | undefined)?.toolScopes],
        [["limits", "tools"], (plan.limits as Record<string, unknown> | undefined)?.tools],
      ];
      for (const [path, byTool] of scoped) {
        for (const [tool] of entries(byTool)) {
          const renamed = renames.get(tool);
          if (renamed !== undefined && !claimed.has(tool))
            problems.push({
              path: [...path, tool],
              message: `toolOverrides renames ${tool} to ${renamed}: name it ${renamed} here (as clients see it)`,
            });
        }
      }
      return problems;
    },
  },
];
