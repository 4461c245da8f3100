/**
 * Prompts: MCP prompt templates of a Service.
 */
import { z } from "zod";
import { artifactStatus, listMap, objectRef } from "../common.ts";
import { defineKind } from "../kind.ts";

export const promptArgument = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "must be an identifier" })
      .describe("Argument name, used as {{name}} in messages."),
    description: z.string().max(4096).optional().describe("What the argument is."),
    required: z.boolean().default(false).describe("Whether prompts/get refuses a call without it."),
  })
  .describe("An argument of the prompt.");

export const mcpPrompt = z
  .object({
    name: z.string().min(1).max(256).describe("Prompt name, unique within the Exposition's prompts."),
    title: z.string().max(256).optional().describe("Human-readable title."),
    description: z.string().max(8192).optional().describe("What the prompt is for."),
    arguments: listMap(promptArgument, "name").optional().describe("Arguments substituted into the messages."),
    messages: z
      .array(
        z
          .object({
            role: z.enum(["user", "assistant"]).describe("Who speaks."),
            text: z.string().min(1).max(65536).describe("Message text; {{argument}} placeholders are substituted."),
          })
          .describe("A message of the prompt."),
      )
      .min(1)
      .describe("The messages prompts/get returns."),
  })
  .describe("An MCP prompt template.");

export const promptsSpec = z
  .object({
    serviceRef: objectRef("Service"),
    prompts: listMap(mcpPrompt, "name").min(1).describe("The prompts."),
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
