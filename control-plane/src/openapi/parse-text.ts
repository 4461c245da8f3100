/**
 * Turning the submitted text into a JSON value: JSON when it parses as JSON, else YAML 1.2 (of
 * which JSON is a subset). Syntax errors carry the line and column of the text.
 */
import { type Document, LineCounter, parseDocument } from "yaml";
import { syntaxError, tooDeep } from "./errors.ts";
import { maxDocumentDepth } from "./limits.ts";

/** YAML aliases can multiply a small text into a huge value ("billion laughs"); the yaml default. */
const maxAliasCount = 100;

/** A YAML text's parsed document: where each node is written (see locate.ts). */
export type YamlPositions = { document: Document.Parsed; lineCounter: LineCounter };

/** The value, and for a YAML text its parsed document. */
export type ParsedText = { value: unknown; yaml?: YamlPositions };

export function parseDocumentText(text: string): ParsedText {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const looksLikeJson = /^\s*[{[]/.test(source);
  let jsonError: unknown;
  if (looksLikeJson) {
    // JSON.parse is several times faster than the YAML parser on large documents.
    try {
      return { value: JSON.parse(source) };
    } catch (error) {
      jsonError = error;
    }
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(source, { prettyErrors: true, lineCounter });
  const [firstError] = document.errors;
  if (firstError) {
    if (jsonError instanceof Error) throw jsonSyntaxError(jsonError, source);
    const position = firstError.linePos?.[0];
    const location = position && { line: position.line, column: position.col };
    // The YAML parser recurses per level of flow nesting: its overflow is the nesting limit.
    if (firstError.message.includes("call stack")) throw tooDeep(maxDocumentDepth, location);
    throw syntaxError(firstLine(firstError.message), location);
  }
  try {
    return { value: document.toJS({ maxAliasCount }), yaml: { document, lineCounter } };
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(maxDocumentDepth, undefined);
    throw syntaxError(error instanceof Error ? error.message : String(error), undefined);
  }
}

/** V8 reports `... in JSON at position 12 (line 2 column 5)`; older engines only the position. */
function jsonSyntaxError(error: Error, text: string) {
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(error.message);
  if (lineColumn) {
    const reason = error.message
      .replace(lineColumn[0], "")
      .replace(/ at position \d+/, "")
      .trim();
    return syntaxError(reason, {
      line: Number(lineColumn[1]),
      column: Number(lineColumn[2]),
    });
  }
  const position = /at position (\d+)/.exec(error.message);
  if (position) {
    const before = text.slice(0, Number(position[1])).split("\n");
    return syntaxError(error.message, { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 });
  }
  return syntaxError(error.message, undefined);
}

/** yaml's pretty messages end with `at line 3, column 10:` and a code frame; the location is kept apart. */
function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
}
