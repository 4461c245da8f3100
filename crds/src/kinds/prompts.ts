/**
 * Prompts: MCP prompt templates of a Service. A message is text, an image, audio or an embedded
 * resource; binary data is base64, bounded so one record stays well within what etcd and the
 * change stream carry.
 */
import { z } from "zod";
import { artifactStatus, listMap, objectRef } from "../common.ts";
import { defineKind } from "../kind.ts";
import { exactlyOneOf } from "../rules.ts";

/** Base64 characters of one image, audio clip or embedded blob: 1 MiB of text, 768 KiB of data. */
export const MAX_PROMPT_BASE64 = 1_048_576;

export const promptArgument = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "must be an identifier" })
      .describe("Argument name, used as {{name}} in messages."),
    description: z.string().max(4096).optional().describe("What the argument is."),
    required: z.boolean().default(false).describe("Whether prompts/get refuses a call without it."),
    values: z
      .array(z.string().min(1).max(256))
      .max(100)
      .optional()
      .describe("Values completion/complete suggests for this argument (those starting with what was typed)."),
  })
  .describe("An argument of the prompt.");

const base64 = z
  .string()
  .min(1)
  .max(MAX_PROMPT_BASE64)
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, {
    message: "must be base64 (standard alphabet, padded)",
  });

const media = (kind: "image" | "audio") =>
  z
    .object({
      data: base64.describe(`The ${kind}, base64-encoded (at most ${MAX_PROMPT_BASE64} characters).`),
      mimeType: z
        .string()
        .max(256)
        .regex(new RegExp(`^${kind}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$`), { message: `must be an ${kind}/* type` })
        .describe(`MIME type of the ${kind}, for example ${kind === "image" ? "image/png" : "audio/wav"}.`),
    })
    .describe(`An ${kind} message.`);

const embeddedResource = exactlyOneOf(
  z.object({
    uri: z
      .string()
      .min(1)
      .max(2048)
      .regex(/^(?:[A-Za-z][A-Za-z0-9+.-]*:|\{\{)/, { message: "must be an absolute URI or start with {{argument}}" })
      .describe("URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute."),
    mimeType: z.string().max(256).optional().describe("MIME type of the content."),
    text: z
      .string()
      .max(MAX_PROMPT_BASE64)
      .optional()
      .describe("Text content; {{argument}} placeholders are substituted."),
    blob: base64.optional().describe(`Binary content, base64-encoded (at most ${MAX_PROMPT_BASE64} characters).`),
  }),
  ["text", "blob"],
).describe("A resource embedded in the message: its URI and its text or binary content.");

export const promptMessage = exactlyOneOf(
  z.object({
    role: z.enum(["user", "assistant"]).describe("Who speaks."),
    text: z.string().min(1).max(65536).optional().describe("Message text; {{argument}} placeholders are substituted."),
    image: media("image").optional(),
    audio: media("audio").optional(),
    resource: embeddedResource.optional(),
  }),
  ["text", "image", "audio", "resource"],
).describe("A message of the prompt: exactly one of text, image, audio or resource.");

export const mcpPrompt = z
  .object({
    name: z.string().min(1).max(256).describe("Prompt name, unique within the Exposition's prompts."),
    title: z.string().max(256).optional().describe("Human-readable title."),
    description: z.string().max(8192).optional().describe("What the prompt is for."),
    arguments: listMap(promptArgument, "name").optional().describe("Arguments substituted into the messages."),
    messages: z.array(promptMessage).min(1).max(32).describe("The messages prompts/get returns (at most 32)."),
  })
  .describe("An MCP prompt template.");

export const promptsSpec = z
  .object({
    serviceRef: objectRef("Service"),
    // Bounded, as the messages are: the API server prices each message's CEL rule by how many there can be.
    prompts: listMap(mcpPrompt, "name").min(1).max(100).describe("The prompts (at most 100 per record)."),
  })
  .describe("MCP prompts of a Service, served by every Exposition of it.");

export const Prompts = defineKind({
  kind: "Prompts",
  plural: "prompts",
  shortNames: ["mcpprompts"],
  description: "MCP prompt templates of a Service.",
  spec: promptsSpec,
  status: artifactStatus,
});
