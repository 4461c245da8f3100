/**
 * A plan's output filters (toolOutputFilters): what each tool's result keeps (retain), how it is
 * rewritten (patches, RFC 6902) and the notation of its text (format). The gateway applies them
 * in that order to the JSON a tool returns, and derives the tool's outputSchema through them.
 */
import { z } from "zod";
import { withRules } from "../rules.ts";
import { toolName } from "./custom-tools.ts";

export const MAX_RETAIN_POINTERS = 1000;
export const MAX_PATCHES = 1000;
export const MAX_POINTER_LENGTH = 2048;

/** RFC 6901: empty (the whole document), or `/`-prefixed tokens where `~` is only ever `~0` or `~1`. */
const pointerSyntax = /^(?:\/(?:[^~/]|~[01])*)*$/;

export const jsonPointer = z.string().max(MAX_POINTER_LENGTH).regex(pointerSyntax, {
  message: "must be a JSON Pointer (RFC 6901): empty, or tokens each after a '/', with '~' written only as ~0 or ~1",
});

const patchOperation = withRules(
  z.object({
    op: z.enum(["add", "remove", "replace", "move", "copy", "test"]).describe("The RFC 6902 operation."),
    path: jsonPointer.describe("Where it applies (RFC 6901; '*' is an ordinary token here)."),
    from: jsonPointer.optional().describe("move and copy: where the value comes from."),
    value: z.unknown().optional().describe("add, replace and test: the value (any JSON)."),
  }),
  [
    {
      whyNotCel: "a rule inside a map of lists without a size limit exceeds the API server's CEL cost limit",
      violations: (operation) => {
        const op = operation.op;
        if ((op === "add" || op === "replace" || op === "test") && !("value" in operation))
          return [{ path: ["value"], message: `op ${op} needs value` }];
        if ((op === "move" || op === "copy") && typeof operation.from !== "string")
          return [{ path: ["from"], message: `op ${op} needs from` }];
        return [];
      },
    },
  ],
).describe("One JSON Patch operation (RFC 6902).");

export const toolOutputFilter = withRules(
  z.object({
    retain: z
      .array(jsonPointer)
      .max(MAX_RETAIN_POINTERS)
      .optional()
      .describe(
        "JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: " +
          "a '*' token is every item of an array or member of an object (/items/*/name). A pointer that matches " +
          "nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when " +
          `absent. At most ${MAX_RETAIN_POINTERS}.`,
      ),
    patches: z
      .array(patchOperation)
      .max(MAX_PATCHES)
      .optional()
      .describe(
        "RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not " +
          "exist is skipped; a test that fails stops the sequence and the document stays as it was before the " +
          `patches. At most ${MAX_PATCHES}.`,
      ),
    format: z
      .enum(["json", "toon"])
      .default("json")
      .describe(
        "Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). " +
          "structuredContent stays JSON either way.",
      ),
  }),
  [
    {
      message: "set retain, patches or format toon: an empty filter filters nothing",
      path: [],
      cel: "has(self.retain) || has(self.patches) || (has(self.format) && self.format == 'toon')",
      holds: (filter) => filter.retain !== undefined || filter.patches !== undefined || filter.format === "toon",
    },
  ],
).describe("How one tool's JSON result is shaped: retain, then patches, then format.");
export type ToolOutputFilter = z.output<typeof toolOutputFilter>;

export const toolOutputFilters = z
  .record(toolName, toolOutputFilter)
  .describe(
    "Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, " +
      "applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; " +
      "data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an " +
      "error keeps only the gateway's first block. The " +
      "tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool " +
      "lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within " +
      "the size limit returns an isError result instead of unfiltered text.",
  );
