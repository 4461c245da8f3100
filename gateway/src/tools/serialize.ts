/**
 * OpenAPI 3 parameter serialization (`style` / `explode`), one serializer per parameter built
 * once at compile time; a call only concatenates strings. Every value that goes into a path or a
 * query string is percent-encoded with `encodeURIComponent`, so `/`, `?`, `#`, `%` and `&` in a
 * value never change the URL's structure.
 *
 * - path: `simple` (default), `label`, `matrix`;
 * - query: `form` (default; arrays and objects exploded unless `explode: false`),
 *   `spaceDelimited`, `pipeDelimited` (arrays joined by `%20` / `|`), `deepObject` (`name[key]=v`);
 * - header: `simple` (arrays joined by `,`); characters a header cannot carry are percent-encoded.
 * A parameter described by `content` (a media type) is sent as its JSON text. Values nested deeper
 * than a style can express are sent as JSON text. `null` is sent as an empty value.
 */
import type { OperationParameter } from "./source.ts";

export type ParameterSerialization = Pick<OperationParameter, "name" | "style" | "explode" | "contentType">;

/** `encodeURIComponent` that cannot throw: lone surrogates (legal in JSON strings) become U+FFFD first. */
export function encodeComponent(text: string): string {
  return encodeURIComponent(text.toWellFormed());
}

/** A scalar's text; anything else as JSON text. */
export function valueText(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    case "undefined":
      return "";
    default:
      return value === null ? "" : JSON.stringify(value);
  }
}

const encodedText = (value: unknown): string => encodeComponent(valueText(value));

function entriesOf(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Serializes a path parameter's value into its (encoded) part of one path segment. */
export function pathSerializer(parameter: ParameterSerialization): (value: unknown) => string {
  if (parameter.contentType) return (value) => encodeComponent(JSON.stringify(value ?? null));
  const explode = parameter.explode ?? false;
  const name = encodeComponent(parameter.name);
  const pairs = (value: object, inner: string, outer: string): string =>
    entriesOf(value)
      .map(([k, v]) => `${encodeComponent(k)}${inner}${encodedText(v)}`)
      .join(outer);
  switch (parameter.style) {
    case "label":
      return (value) => {
        if (Array.isArray(value)) return `.${value.map(encodedText).join(explode ? "." : ",")}`;
        if (isObject(value)) return `.${explode ? pairs(value, "=", ".") : pairs(value, ",", ",")}`;
        return `.${encodedText(value)}`;
      };
    case "matrix":
      return (value) => {
        if (Array.isArray(value)) {
          return explode
            ? value.map((item) => `;${name}=${encodedText(item)}`).join("")
            : `;${name}=${value.map(encodedText).join(",")}`;
        }
        if (isObject(value)) return explode ? `;${pairs(value, "=", ";")}` : `;${name}=${pairs(value, ",", ",")}`;
        return `;${name}=${encodedText(value)}`;
      };
    default:
      return (value) => {
        if (Array.isArray(value)) return value.map(encodedText).join(",");
        if (isObject(value)) return explode ? pairs(value, "=", ",") : pairs(value, ",", ",");
        return encodedText(value);
      };
  }
}

/** Appends a query parameter's `name=value` pairs (already encoded) to `out`; nothing for an empty array. */
export type QueryAppender = (value: unknown, out: string[]) => void;

export function queryAppender(parameter: ParameterSerialization): QueryAppender {
  const name = encodeComponent(parameter.name);
  if (parameter.contentType) {
    return (value, out) => {
      out.push(`${name}=${encodeComponent(JSON.stringify(value ?? null))}`);
    };
  }
  const style = parameter.style ?? "form";
  if (style === "deepObject") {
    return (value, out) => {
      if (!isObject(value)) {
        out.push(`${name}=${encodedText(value)}`);
        return;
      }
      for (const [key, item] of entriesOf(value)) {
        const field = `${name}[${encodeComponent(key)}]`;
        if (Array.isArray(item)) for (const element of item) out.push(`${field}=${encodedText(element)}`);
        else out.push(`${field}=${encodedText(item)}`);
      }
    };
  }
  const explode = parameter.explode ?? style === "form";
  const separator = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
  return (value, out) => {
    if (Array.isArray(value)) {
      if (value.length === 0) return;
      if (explode) for (const item of value) out.push(`${name}=${encodedText(item)}`);
      else out.push(`${name}=${value.map(encodedText).join(separator)}`);
    } else if (isObject(value)) {
      const entries = entriesOf(value);
      if (explode) for (const [key, item] of entries) out.push(`${encodeComponent(key)}=${encodedText(item)}`);
      else
        out.push(
          `${name}=${entries.map(([key, item]) => `${encodeComponent(key)}${separator}${encodedText(item)}`).join(separator)}`,
        );
    } else {
      out.push(`${name}=${encodedText(value)}`);
    }
  };
}

/** Bytes a header value cannot carry (controls, and non-ASCII, which HTTP/1.1 leaves undefined). */
const unsafeHeaderCharacters = /[^\t\x20-\x7e]/gu;

/** A header value's characters that HTTP cannot carry, percent-encoded: a value never splits a header. */
export function safeHeaderValue(text: string): string {
  unsafeHeaderCharacters.lastIndex = 0;
  return unsafeHeaderCharacters.test(text)
    ? text.toWellFormed().replace(unsafeHeaderCharacters, (character) => encodeURIComponent(character))
    : text;
}

export function headerSerializer(parameter: ParameterSerialization): (value: unknown) => string {
  if (parameter.contentType) return (value) => safeHeaderValue(JSON.stringify(value ?? null));
  const explode = parameter.explode ?? false;
  return (value) => {
    let text: string;
    if (Array.isArray(value)) text = value.map(valueText).join(",");
    else if (isObject(value)) {
      text = entriesOf(value)
        .map(([k, v]) => (explode ? `${k}=${valueText(v)}` : `${k},${valueText(v)}`))
        .join(",");
    } else text = valueText(value);
    return safeHeaderValue(text);
  };
}
