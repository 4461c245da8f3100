/**
 * Result budgets (a plan's `maxResultBytes`, or a tool's in `toolOverrides`): a backend result
 * over its budget is made to fit, after the output filter, as the last step before it is sent.
 *
 * What counts: the bytes of the CallToolResult as JSON (`JSON.stringify`, UTF-8, no whitespace):
 * content, structuredContent, isError and _meta, as the gateway makes it; not the JSON-RPC envelope,
 * the SSE framing, nor the 2026-07-28 frame (`resultType`, the server's info in `_meta`) added
 * after it. A call under budget is passed on as it is; a tool
 * without a budget pays nothing (the dispatcher does not call in here).
 *
 * Over budget:
 * - a result with structuredContent: arrays are cut from their end, the longest first: every
 *   array longer than a cap keeps its first `cap` items, and the cap is the largest that fits
 *   (never below the outputSchema's `minItems` for that array, so the result still validates;
 *   items are whole values, never cut inside). The text block is written again from what was
 *   kept (JSON, or the tool's own rendering); a text block after it says how many items were
 *   left out, and `_meta["dev.atrium/trimmed"]` holds `{ maxResultBytes, omittedItems }`;
 * - an isError result, or one without structuredContent: blocks after the first are left out,
 *   then the first text block is cut at a character boundary; an error's is never cut before the
 *   end of its first line (a status, or a gRPC code with its message) and the next
 *   ERROR_MESSAGE_FLOOR characters (the backend's message: HTTP error bodies and GraphQL error
 *   lists start there), even past the budget; `_meta["dev.atrium/trimmed"]` holds
 *   `{ maxResultBytes, omittedCharacters, omittedBlocks }`;
 * - what cannot fit that way (every array at its floor and still over, or a trimmed value the
 *   outputSchema refuses) becomes an isError result saying so, with the answer's `_meta`. The
 *   gateway's own words are never cut, so such a result may exceed a very small budget.
 */
import type { CallToolResult, ContentBlock, JsonSchema, TextContent } from "./mcp.ts";
import { isPlainObject } from "./schema.ts";
import type { Validator } from "./validator.ts";

export const TRIMMED_META_KEY = "dev.atrium/trimmed";

/** Characters of an error's message, after its first line, that a cut always keeps: a cut never hides an error. */
export const ERROR_MESSAGE_FLOOR = 512;

export type ResultBudget = {
  maxBytes: number;
  /** The tool's published outputSchema: its `minItems` are floors of the cut. */
  outputSchema?: JsonSchema;
  /** Its validator: a trimmed value is checked before it is sent. */
  validate?: Validator;
  /** How the tool writes its structured value as text; JSON when absent. */
  render?: (value: unknown) => string;
};

const sizeOf = (result: CallToolResult): number => Buffer.byteLength(JSON.stringify(result));

/** `result` within `budget` (see the module comment); the same object when it already fits. */
export function fitResult(result: CallToolResult, budget: ResultBudget): CallToolResult {
  const size = sizeOf(result);
  if (size <= budget.maxBytes) return result;
  if (!result.isError && isPlainObject(result.structuredContent)) return trimArrays(result, size, budget);
  return cutText(result, size, budget.maxBytes);
}

type Floors = Map<unknown[], number>;

function trimArrays(result: CallToolResult, size: number, budget: ResultBudget): CallToolResult {
  const structured = result.structuredContent as Record<string, unknown>;
  const first = result.content[0];
  const textBlock = first?.type === "text" ? first : undefined;
  // A non-object answer is wrapped as { result } (result.ts); its text is the bare value. A tool's own
  // rendering (an output filter's) writes the whole structuredContent.
  const wrapped =
    !budget.render &&
    Object.keys(structured).length === 1 &&
    "result" in structured &&
    !textBlock?.text.trimStart().startsWith("{");
  const render = budget.render ?? ((value: unknown) => JSON.stringify(value));
  const floors: Floors = new Map();
  const longest = collectArrays(structured, budget.outputSchema, floors);
  const build = (cap: number): CallToolResult => {
    const counter = { omitted: 0 };
    const value = capArrays(structured, cap, floors, counter) as Record<string, unknown>;
    const notice: TextContent = {
      type: "text",
      text: `[trimmed to fit the result budget of ${budget.maxBytes} bytes: ${counter.omitted} items left out from the end of the longest lists]`,
    };
    const content: ContentBlock[] = [
      ...(textBlock ? [{ ...textBlock, text: render(wrapped ? value.result : value) }] : []),
      ...result.content.slice(textBlock ? 1 : 0),
      notice,
    ];
    const meta = {
      ...result._meta,
      [TRIMMED_META_KEY]: { maxResultBytes: budget.maxBytes, omittedItems: counter.omitted },
    };
    return { ...result, content, structuredContent: value, _meta: meta };
  };
  // The size only grows with the cap: the largest cap that fits, by bisection.
  let low = 0;
  let high = longest - 1;
  let best: CallToolResult | undefined;
  while (low <= high) {
    const cap = Math.floor((low + high) / 2);
    const built = build(cap);
    if (sizeOf(built) <= budget.maxBytes) {
      best = built;
      low = cap + 1;
    } else high = cap - 1;
  }
  if (!best) return tooLarge(result, size, budget.maxBytes, "even with every list trimmed");
  const violations = budget.validate?.(best.structuredContent) ?? [];
  if (violations.length > 0) return tooLarge(result, size, budget.maxBytes, "trimmed within the output schema");
  return best;
}

/** The arrays of `value` with their floors (the schema's minItems where it says one); returns the longest length. */
function collectArrays(value: unknown, schema: JsonSchema | undefined, floors: Floors): number {
  let longest = 0;
  const stack: [unknown, JsonSchema | undefined][] = [[value, schema]];
  while (stack.length > 0) {
    const [node, at] = stack.pop() as [unknown, JsonSchema | undefined];
    const resolved = resolve(at, schema);
    if (Array.isArray(node)) {
      longest = Math.max(longest, node.length);
      floors.set(node, minItemsOf(resolved, schema));
      const items = resolved && isPlainObject(resolved.items) ? resolved.items : undefined;
      const prefix = resolved && Array.isArray(resolved.prefixItems) ? resolved.prefixItems : [];
      node.forEach((item, index) => {
        const own = prefix[index];
        stack.push([item, isPlainObject(own) ? own : items]);
      });
    } else if (isPlainObject(node)) {
      const properties = resolved && isPlainObject(resolved.properties) ? resolved.properties : {};
      const additional =
        resolved && isPlainObject(resolved.additionalProperties) ? resolved.additionalProperties : undefined;
      for (const [key, member] of Object.entries(node)) {
        const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
        stack.push([member, isPlainObject(own) ? own : additional]);
      }
    }
  }
  return longest;
}

/** The schema a local `$ref` (`#/$defs/…`) points to, followed a few times; the schema itself otherwise. */
function resolve(schema: JsonSchema | undefined, root: JsonSchema | undefined): JsonSchema | undefined {
  const defs = root && isPlainObject(root.$defs) ? root.$defs : {};
  let current = schema;
  for (let hops = 0; hops < 16 && current; hops++) {
    const ref = current.$ref;
    if (typeof ref !== "string") return current;
    const name = ref.startsWith("#/$defs/")
      ? ref.slice("#/$defs/".length).replaceAll("~1", "/").replaceAll("~0", "~")
      : "";
    const target = Object.hasOwn(defs, name) ? defs[name] : undefined;
    current = isPlainObject(target) ? target : undefined;
  }
  return undefined;
}

/** The largest minItems the schema or its combined subschemas say: keeping more never breaks a minItems. */
function minItemsOf(schema: JsonSchema | undefined, root: JsonSchema | undefined): number {
  if (!schema) return 0;
  let floor = typeof schema.minItems === "number" ? schema.minItems : 0;
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    for (const member of list)
      if (isPlainObject(member)) floor = Math.max(floor, minItemsOf(resolve(member, root), root));
  }
  return floor;
}

/** A copy of `value` whose arrays keep at most `cap` items (their floor at least); counts the items left out. */
function capArrays(value: unknown, cap: number, floors: Floors, counter: { omitted: number }): unknown {
  if (Array.isArray(value)) {
    const keep = Math.min(value.length, Math.max(cap, floors.get(value) ?? 0));
    counter.omitted += value.length - keep;
    const out = new Array(keep);
    for (let i = 0; i < keep; i++) out[i] = capArrays(value[i], cap, floors, counter);
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    // Own data properties only, as JSON has: a member named __proto__ stays a member.
    for (const [key, member] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: capArrays(member, cap, floors, counter),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

/** Blocks after the first left out, then the first block's text cut; an error's never before its message (see the module comment). */
function cutText(result: CallToolResult, size: number, maxBytes: number): CallToolResult {
  const first = result.content[0];
  const omittedBlocks = Math.max(0, result.content.length - 1);
  const meta = (omittedCharacters: number) => ({
    ...result._meta,
    [TRIMMED_META_KEY]: { maxResultBytes: maxBytes, omittedCharacters, omittedBlocks },
  });
  const notice = (omittedCharacters: number) =>
    `\n…[cut to fit the result budget of ${maxBytes} bytes: ${omittedCharacters} characters` +
    (omittedBlocks > 0 ? ` and ${omittedBlocks} more content blocks` : "") +
    " left out]";
  if (first?.type !== "text") return tooLarge(result, size, maxBytes, "with its content cut");
  const { text } = first;
  const { structuredContent: _dropped, ...rest } = result;
  const build = (keep: number): CallToolResult => ({
    ...rest,
    content: [{ ...first, text: text.slice(0, keep) + notice(text.length - keep) }],
    _meta: meta(text.length - keep),
  });
  const lineEnd = text.indexOf("\n");
  const floor = result.isError
    ? lineEnd === -1
      ? text.length
      : boundary(text, Math.min(text.length, lineEnd + 1 + ERROR_MESSAGE_FLOOR))
    : 0;
  let low = floor;
  let high = text.length;
  let keep = floor;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    if (sizeOf(build(boundary(text, middle))) <= maxBytes) {
      keep = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return build(boundary(text, keep));
}

/** `index`, moved back off the middle of a surrogate pair. */
function boundary(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return index > 0 && index < text.length && code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

function tooLarge(result: CallToolResult, size: number, maxBytes: number, how: string): CallToolResult {
  return {
    content: [
      {
        type: "text",
        text:
          `The backend's answer (${size} bytes as a result) does not fit the result budget of ${maxBytes} bytes ` +
          `${how}: it was not passed on. Ask for less (a narrower query, a smaller page).`,
      },
    ],
    isError: true,
    ...(result._meta ? { _meta: result._meta } : {}),
  };
}
