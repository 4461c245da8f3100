/**
 * prompts/list and prompts/get over the Service's Prompts: `{{argument}}` placeholders in text
 * (of a message or of an embedded resource) and in an embedded resource's URI are replaced by the
 * arguments given; a missing required argument, or a URI that does not come out absolute, is
 * invalid params. Images, audio and blobs are passed as stored (the schema checked their base64).
 */
import type { CompiledExposition } from "@atrium/contract";
import { ERROR, McpError } from "./protocol.ts";

type Prompt = CompiledExposition["prompts"][number];
type Message = Prompt["messages"][number];

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

/**
 * Most text a filled prompt may hold, in characters: each placeholder repeats its argument, so a
 * message of many placeholders and a long argument would otherwise grow to hundreds of megabytes.
 */
export const MAX_FILLED_PROMPT_CHARS = 4 * 1024 * 1024;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:/;

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
  let filledChars = 0;
  const fill = (text: string) => {
    const filled = text.replace(PLACEHOLDER, (placeholder: string, key: string) => {
      const value = String(given[key] ?? "");
      filledChars += value.length - placeholder.length;
      if (filledChars + text.length > MAX_FILLED_PROMPT_CHARS) {
        throw new McpError(
          ERROR.invalidParams,
          `The arguments make prompt ${prompt.name} longer than ${MAX_FILLED_PROMPT_CHARS} characters: give shorter ones`,
          httpStatusOfInvalid,
        );
      }
      return value;
    });
    filledChars += text.length;
    return filled;
  };
  const content = (message: Message) => {
    if (message.image) return { type: "image", data: message.image.data, mimeType: message.image.mimeType };
    if (message.audio) return { type: "audio", data: message.audio.data, mimeType: message.audio.mimeType };
    if (message.resource) {
      const { uri: template, mimeType, text, blob } = message.resource;
      const uri = fill(template);
      if (!ABSOLUTE_URI.test(uri)) {
        throw new McpError(
          ERROR.invalidParams,
          `The embedded resource's URI must be absolute (scheme:…); the arguments made ${JSON.stringify(uri.slice(0, 200))}`,
          httpStatusOfInvalid,
        );
      }
      const body = text !== undefined ? { text: fill(text) } : { blob };
      return { type: "resource", resource: { uri, ...(mimeType ? { mimeType } : {}), ...body } };
    }
    return { type: "text", text: fill(message.text ?? "") };
  };
  return {
    ...(prompt.description ? { description: prompt.description } : {}),
    messages: prompt.messages.map((message) => ({ role: message.role, content: content(message) })),
  };
}
