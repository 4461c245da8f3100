/**
 * One tool's output filter, compiled once per Exposition version: its steps applied to the
 * tool's structuredContent in their fixed order (retain, then patches, then format).
 *
 * - retain: @atrium/contract's pointer tree (`*` is every item or member).
 * - patches: RFC 6902 through the `rfc6902` library, applied in order to what retain kept. An
 *   operation whose path or from does not exist is skipped (the library reports it and goes on);
 *   a failed test (an absent path included), or an exception of the library, keeps the document as
 *   it was before the patches. Each call works on its own copy, so no call sees another's values.
 * - format: the text block is the document as JSON, or as TOON (`@toon-format/toon`);
 *   structuredContent stays the JSON value either way.
 */
import { compileRetain, retainDocument } from "@atrium/contract/output-filter";
import type { ToolOutputFilter } from "@atrium/crds";
import { encode } from "@toon-format/toon";
import { applyPatch, type Operation } from "rfc6902";

export type FilteredDocument = { structured: Record<string, unknown>; text: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type DocumentFilter = (document: Record<string, unknown>) => FilteredDocument;

export function compileDocumentFilter(filter: ToolOutputFilter): DocumentFilter {
  const retain = filter.retain ? compileRetain(filter.retain) : undefined;
  const patches = filter.patches && filter.patches.length > 0 ? (filter.patches as unknown as Operation[]) : undefined;
  const tests = patches?.some((operation) => operation.op === "test") ?? false;
  const toon = filter.format === "toon";
  return (document) => {
    let value: unknown = retain ? retainDocument(document, retain) : document;
    if (patches) value = patched(value, patches, tests);
    // structuredContent is an object (2025 clients accept nothing else), as for an unfiltered answer.
    const structured = isPlainObject(value) ? value : { result: value };
    return { structured, text: toon ? encode(structured) : JSON.stringify(structured) };
  };
}

function patched(document: unknown, patches: Operation[], tests: boolean): unknown {
  // The library changes the document in place (and copies the values it adds): work on a copy
  // whenever the document may have to be given back as it was.
  const working = structuredClone(document);
  try {
    const outcomes = applyPatch(working, patches);
    // A test of an absent path fails too (the library reports it missing).
    if (tests && outcomes.some((outcome, index) => outcome !== null && patches[index]?.op === "test")) return document;
    return working;
  } catch {
    return document;
  }
}
