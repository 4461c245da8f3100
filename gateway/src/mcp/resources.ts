/**
 * resources/list, resources/templates/list and resources/read over the Service's Resources:
 * fixed text, or content read from the backend (templates: URI variables fill the path).
 */
import type { CompiledExposition } from "@atrium/contract";

type Resource = CompiledExposition["resources"][number];
type ResourceTemplate = CompiledExposition["resourceTemplates"][number];

const describe = (r: {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
}) => ({
  name: r.name,
  ...(r.title ? { title: r.title } : {}),
  ...(r.description ? { description: r.description } : {}),
  ...(r.mimeType ? { mimeType: r.mimeType } : {}),
});

export function listResources(resources: Resource[]) {
  return resources.map((r) => ({ uri: r.uri, ...describe(r) }));
}

export function listResourceTemplates(templates: ResourceTemplate[]) {
  return templates.map((t) => ({ uriTemplate: t.uriTemplate, ...describe(t) }));
}

export type ResourceSource =
  | { kind: "text"; uri: string; mimeType: string; text: string }
  | { kind: "backend"; uri: string; mimeType: string | undefined; path: string };

/** What to read for `uri`, or undefined when no resource or template matches it. */
export function resolveResource(
  resources: Resource[],
  templates: CompiledTemplate[],
  uri: string,
): ResourceSource | undefined {
  const fixed = resources.find((r) => r.uri === uri);
  if (fixed) {
    return fixed.text !== undefined
      ? { kind: "text", uri, mimeType: fixed.mimeType ?? "text/plain", text: fixed.text }
      : { kind: "backend", uri, mimeType: fixed.mimeType, path: fixed.fromBackend?.path ?? "/" };
  }
  for (const template of templates) {
    const variables = template.match(uri);
    if (variables) {
      const path = template.source.fromBackend.path.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_, key: string) =>
        encodeURIComponent(variables[key] ?? ""),
      );
      return { kind: "backend", uri, mimeType: template.source.mimeType, path };
    }
  }
  return undefined;
}

export interface CompiledTemplate {
  source: ResourceTemplate;
  match(uri: string): Record<string, string> | undefined;
}

/** RFC 6570 level-1 templates (`{var}`): each variable matches one path segment. */
export function compileTemplates(templates: ResourceTemplate[]): CompiledTemplate[] {
  return templates.map((source) => {
    const names: string[] = [];
    const pattern = source.uriTemplate
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const variable = /^\{([^}]+)\}$/.exec(part);
        if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(variable[1] as string);
        return "([^/?#]+)";
      })
      .join("");
    const regex = new RegExp(`^${pattern}$`);
    return {
      source,
      match: (uri) => {
        const found = regex.exec(uri);
        if (!found) return undefined;
        const values = names.map((_, i) => variableValue(found[i + 1] ?? ""));
        if (values.some((value) => value === undefined)) return undefined;
        return Object.fromEntries(names.map((name, i) => [name, values[i] as string]));
      },
    };
  });
}

/**
 * A variable's text decoded, or undefined for a malformed %-escape or a lone surrogate: such a
 * URI names no resource. (Decoding, or encoding it into the backend path, would throw: a 500 on
 * a read, and on a change an exception out of the notifications of the streams subscribed to it.)
 */
function variableValue(text: string): string | undefined {
  try {
    const value = decodeURIComponent(text);
    return value.isWellFormed() ? value : undefined;
  } catch {
    return undefined;
  }
}
