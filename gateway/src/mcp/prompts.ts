/**
 * prompts/list and prompts/get over the Service's Prompts: `{{argument}}` placeholders in the
 * messages are replaced by the arguments given; a missing required argument is invalid params.
 */
import type { CompiledExposition } from "@atrium/contract";
import { ERROR, McpError } from "./protocol.ts";

type Prompt = CompiledExposition["prompts"][number];

export function listPrompts(prompts: Prompt[]) {
  return prompts.map(({ name, title, description, arguments: args }) => ({
    name,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(args?.length
      ? {
          arguments: args.map((a) => ({
            name: a.name,
            ...(a.description ? { description: a.description } : {}),
            required: a.required,
          })),
        }
      : {}),
  }));
}

export function getPrompt(prompts: Prompt[], params: Record<string, unknown>, httpStatusOfInvalid: number) {
  const name = params.name;
  const prompt = typeof name === "string" ? prompts.find((p) => p.name === name) : undefined;
  if (!prompt) throw new McpError(ERROR.invalidParams, `Unknown prompt: ${String(name)}`, httpStatusOfInvalid);
  const given = (params.arguments ?? {}) as Record<string, unknown>;
  const missing = (prompt.arguments ?? []).filter(
    (a) => a.required && (given[a.name] === undefined || given[a.name] === ""),
  );
  if (missing.length > 0) {
    throw new McpError(
      ERROR.invalidParams,
      `Missing required argument(s): ${missing.map((a) => a.name).join(", ")}`,
      httpStatusOfInvalid,
    );
  }
  return {
    ...(prompt.description ? { description: prompt.description } : {}),
    messages: prompt.messages.map((message) => ({
      role: message.role,
      content: {
        type: "text",
        text: message.text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, key: string) =>
          String(given[key] ?? ""),
        ),
      },
    })),
  };
}
