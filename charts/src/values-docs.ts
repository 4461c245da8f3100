/**
 * Turns a chart's values JSON Schema into its values.yaml (defaults, with each description as a
 * comment) and its README table. Both walk the same schema, so they cannot disagree with it.
 */
import { stringify } from "yaml";

export interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: boolean | JsonSchemaNode;
  items?: JsonSchemaNode;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
}

/** Values the schema accepts but values.yaml and the README leave out. */
const hidden = new Set(["global"]);

function entries(node: JsonSchemaNode): [string, JsonSchemaNode][] {
  return Object.entries(node.properties ?? {}).filter(([key]) => !hidden.has(key));
}

/**
 * A value with named properties and no default of its own (or `{}`, Zod's prefault) is written out
 * key by key; anything else, such as `resources` with its default requests, is a leaf.
 */
function isGroup(node: JsonSchemaNode): boolean {
  const ownDefault = node.default;
  const emptyDefault =
    ownDefault === undefined ||
    (typeof ownDefault === "object" && ownDefault !== null && Object.keys(ownDefault).length === 0);
  return node.properties !== undefined && emptyDefault;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function leafDefault(path: string, node: JsonSchemaNode): unknown {
  if (node.default === undefined)
    throw new Error(`${path}: every value needs a default (.default() in its Zod schema)`);
  return node.default;
}

function yamlLines(schema: JsonSchemaNode, indent: string, path: string): string[] {
  const lines: string[] = [];
  for (const [key, node] of entries(schema)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (!node.description) throw new Error(`${keyPath}: every value needs a description (.describe())`);
    if (!path && lines.length > 0) lines.push("");
    for (const line of wrap(node.description, 100 - indent.length)) lines.push(`${indent}# ${line}`);
    if (isGroup(node)) {
      lines.push(`${indent}${key}:`);
      lines.push(...yamlLines(node, `${indent}  `, keyPath));
    } else {
      const text = stringify({ [key]: leafDefault(keyPath, node) }, { lineWidth: 0 }).trimEnd();
      for (const line of text.split("\n")) lines.push(`${indent}${line}`);
    }
  }
  return lines;
}

export function valuesYaml(chartName: string, schema: JsonSchemaNode): string {
  const header = [
    `# Values of the ${chartName} chart. Generated from charts/src/values by \`npm run generate -w @atrium/charts\`:`,
    "# edit the Zod schemas there. values.schema.json refuses unknown keys and wrong types.",
    "",
  ];
  return `${[...header, ...yamlLines(schema, "", "")].join("\n")}\n`;
}

function typeOf(node: JsonSchemaNode): string {
  if (node.enum) return node.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  if (node.anyOf) return node.anyOf.map(typeOf).join(" or ");
  if (node.type === "array") return node.items ? `list of ${typeOf(node.items)}` : "list";
  if (node.type === "object" && node.additionalProperties && typeof node.additionalProperties === "object") {
    return node.additionalProperties.type || node.additionalProperties.properties ? "map" : "object";
  }
  return Array.isArray(node.type) ? node.type.join(" or ") : (node.type ?? "any");
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function tableRows(schema: JsonSchemaNode, path: string): string[] {
  const rows: string[] = [];
  for (const [key, node] of entries(schema)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (isGroup(node)) rows.push(...tableRows(node, keyPath));
    else {
      const value = JSON.stringify(leafDefault(keyPath, node));
      rows.push(`| \`${keyPath}\` | ${typeOf(node)} | \`${cell(value)}\` | ${cell(node.description ?? "")} |`);
    }
  }
  return rows;
}

/** The README's values table (Markdown). */
export function valuesTable(schema: JsonSchemaNode): string {
  return ["| value | type | default | description |", "|---|---|---|---|", ...tableRows(schema, "")].join("\n");
}
