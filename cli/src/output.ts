/**
 * The one way commands print results: a table for people (one row per item for lists, a
 * key/value table for a single record), or the data itself as JSON or YAML for scripts.
 */
import Table from "cli-table3";
import { stringify } from "yaml";

export const OUTPUT_FORMATS = ["table", "json", "yaml"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A table column: a field name (header derived from it), or a header with how to compute the cell. */
// biome-ignore lint/suspicious/noExplicitAny: columns read whatever record shape a command prints
export type Column<T = any> = string | { header: string; value: (item: T) => unknown };

export interface PrintOptions<T> {
  output: OutputFormat;
  /**
   * Table columns (lists) or rows (single records); every field when absent. A record leaves out
   * the named fields it does not have.
   */
  columns?: Column<T>[];
  /** Printed instead of an empty table, e.g. "No services." */
  empty?: string;
}

/** `backendEndpoint` → `BACKEND ENDPOINT`. */
export function headerOf(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toUpperCase();
}

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean", "bigint", "undefined"].includes(typeof value);
}

/** A cell's text: lists joined with commas, flat maps as k=v, anything deeper as compact JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.every(isScalar) ? value.map(cellText).join(", ") : JSON.stringify(value);
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.every(([, item]) => isScalar(item))) return entries.map(([key, item]) => `${key}=${item}`).join(", ");
    return JSON.stringify(value);
  }
  return String(value);
}

function resolve<T>(column: Column<T>): { header: string; value: (item: T) => unknown } {
  if (typeof column !== "string") return column;
  return { header: headerOf(column), value: (item) => (item as Record<string, unknown>)[column] };
}

function defaultColumns<T>(items: T[]): Column<T>[] {
  const fields = new Set<string>();
  for (const item of items) {
    for (const [key, value] of Object.entries(item as object)) if (value !== undefined) fields.add(key);
  }
  return [...fields];
}

/** Borderless, like `kubectl get`: easy to read and to grep. */
function table(head?: string[]): Table.Table {
  return new Table({
    ...(head ? { head } : {}),
    chars: {
      top: "",
      "top-mid": "",
      "top-left": "",
      "top-right": "",
      bottom: "",
      "bottom-mid": "",
      "bottom-left": "",
      "bottom-right": "",
      left: "",
      "left-mid": "",
      mid: "",
      "mid-mid": "",
      right: "",
      "right-mid": "",
      middle: "   ",
    },
    style: { "padding-left": 0, "padding-right": 0, head: [], border: [], compact: true },
  });
}

function trimLines(text: string): string {
  return `${text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")}\n`;
}

/** The text `print` writes. */
export function render<T>(data: T | T[], options: PrintOptions<T>): string {
  if (options.output === "json") return `${JSON.stringify(data, null, 2)}\n`;
  if (options.output === "yaml") return stringify(data);
  if (Array.isArray(data)) {
    if (data.length === 0) return `${options.empty ?? "Nothing to show."}\n`;
    const columns = (options.columns ?? defaultColumns(data)).map(resolve);
    const rows = table(columns.map((column) => column.header));
    for (const item of data) rows.push(columns.map((column) => cellText(column.value(item))));
    return trimLines(rows.toString());
  }
  if (data === null || typeof data !== "object") return `${cellText(data)}\n`;
  // A field the record does not have is left out; a computed row always shows.
  const rows = (options.columns ?? defaultColumns([data]))
    .filter((column) => typeof column !== "string" || (data as Record<string, unknown>)[column] !== undefined)
    .map(resolve);
  const record = table();
  for (const row of rows) record.push([row.header, cellText(row.value(data))]);
  return trimLines(record.toString());
}

export function print<T>(
  data: T | T[],
  options: PrintOptions<T> & { stdout?: { write(text: string): unknown } },
): void {
  (options.stdout ?? process.stdout).write(render(data, options));
}
