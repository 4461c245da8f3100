/**
 * The parser's validation messages, made to point at the submitted text.
 *
 * @readme/openapi-parser reports a schema violation as a message plus a code frame of its own
 * `JSON.stringify(document, null, 2)` of the dereferenced document: line numbers the user has
 * never seen (they may have sent YAML). The message is kept; the frame is replaced by the JSON
 * pointer of the framed line and the line and column of that node in the submitted text.
 */
import { describeLocation, invalidDocument, type OpenApiImportError, type SourceLocation } from "./errors.ts";
import { childPointer } from "./json-pointer.ts";
import type { Locate } from "./locate.ts";
import type { RefSite } from "./plain-json.ts";

export type ValidationFailure = { errors: { message: string }[]; additionalErrors: number };

export type FailureContext = {
  /** Places a pointer of the document in the submitted text. */
  locate: Locate;
  /** Every `$ref` of the document, to place "missing pointer" errors. */
  refs: RefSite[];
  /** The document exactly as the parser validated it (dereferenced, circular refs left alone). */
  validatedDocument: () => Promise<unknown>;
};

export async function validationFailureError(
  failure: ValidationFailure,
  context: FailureContext,
): Promise<OpenApiImportError> {
  let lines: { text: string[]; pointers: string[] } | undefined;
  const details: string[] = [];
  let firstLocation: SourceLocation | undefined;
  const reported = new Set<string>();
  for (const { message } of failure.errors) {
    const frame = parseCodeFrame(message);
    let location: SourceLocation | undefined;
    if (frame) {
      lines ??= await frameLines(context);
      const pointer = lines.pointers[frame.line - 1];
      // Only trust the mapping when our serialization shows the very line the parser framed.
      if (pointer !== undefined && lines.text[frame.line - 1] === frame.code) location = context.locate(pointer);
    } else {
      const missing = /Missing \$ref pointer "([^"]*)"/.exec(message);
      const site = missing && context.refs.find((candidate) => candidate.ref === missing[1]);
      if (site) location = context.locate(childPointer(site.pointer, "$ref"));
    }
    firstLocation ??= location;
    const headline = frame ? `${frame.headline}${frame.annotation ? ` (${frame.annotation})` : ""}` : message;
    // A schema used in several places is reported once per place; the user fixes it once.
    const sameSpot = `${headline}@${location?.line}:${location?.column}`;
    if (location?.line !== undefined && reported.has(sameSpot)) continue;
    reported.add(sameSpot);
    details.push(`${headline}${describeLocation(location)}`);
  }
  if (failure.additionalErrors > 0) details.push(`and ${failure.additionalErrors} more errors`);
  return invalidDocument(details, firstLocation);
}

/** The lines the parser's code frames number, with the pointer each line starts; none if unavailable. */
async function frameLines(context: FailureContext): Promise<{ text: string[]; pointers: string[] }> {
  try {
    const validated = await context.validatedDocument();
    return { text: JSON.stringify(validated, null, 2).split("\n"), pointers: prettyJsonLinePointers(validated) };
  } catch {
    return { text: [], pointers: [] }; // the message is still worth reporting without a location
  }
}

type CodeFrame = { headline: string; line: number; code: string; annotation: string | undefined };

/** Splits `HEADLINE\n\n  8 | ...\n> 9 | code\n    | ^ annotation\n 10 | ...` (babel code-frame). */
export function parseCodeFrame(message: string): CodeFrame | undefined {
  const blank = message.indexOf("\n\n");
  if (blank < 0) return undefined;
  const frameLines = message.slice(blank + 2).split("\n");
  const markedIndex = frameLines.findIndex((line) => /^>\s*\d+ \|/.test(line));
  const marked = markedIndex < 0 ? undefined : /^>\s*(\d+) \|(?: (.*))?$/.exec(frameLines[markedIndex] ?? "");
  if (!marked) return undefined;
  const caret = /^\s*\|\s*\^+\s*(.*)$/.exec(frameLines[markedIndex + 1] ?? "");
  return {
    headline: message.slice(0, blank).replaceAll("\n", " ").trim(),
    line: Number(marked[1]),
    code: marked[2] ?? "",
    annotation: caret?.[1]?.trim() || undefined,
  };
}

/** For each line of `JSON.stringify(value, null, 2)`, the pointer of the member that starts on it. */
export function prettyJsonLinePointers(value: unknown): string[] {
  const pointers: string[] = [""];
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== "object") return;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((item, index) => [index, item])
      : Object.entries(node).filter(([, member]) => !isDroppedByStringify(member));
    if (entries.length === 0) return; // `{}` and `[]` stay on their line
    for (const [key, member] of entries) {
      const memberPointer = childPointer(pointer, key);
      pointers.push(memberPointer);
      visit(member, memberPointer);
    }
    pointers.push(pointer); // the closing bracket
  };
  visit(value, "");
  return pointers;
}

function isDroppedByStringify(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}
