/**
 * Path templates (`/pets/{petId}` from OpenAPI, `/pets/{{id}}` from CustomTools) compiled once
 * into segments, so a call renders a path by concatenation only.
 *
 * A path never leaves the backend's base path: values are encoded with `encodeURIComponent` (a `/`
 * in a value is `%2F`, inside its segment), and a segment a value turns into `.` or `..` is sent as
 * `%2E` / `%2E%2E`. Since URL parsers and proxies still read those as dot segments, `check`
 * reports them (and empty segments) as argument violations before any request is built, and
 * `joinBackendUrl` (request.ts) refuses any path that contains one.
 */

export type PathPlaceholder = {
  /** The argument (tool property) the value comes from. */
  property: string;
  /** The value's encoded text within the segment. */
  encode: (value: unknown) => string;
};

type Piece = string | PathPlaceholder;
/** A literal segment is kept as its final text, `/` included; a templated one as its pieces. */
type Segment = string | Piece[];

export type CompiledPath = {
  /** The encoded path, starting with `/`. */
  render(args: Record<string, unknown>): string;
  /** Violations for arguments that would make a segment empty, `.` or `..`. */
  check(args: Record<string, unknown>): string[];
};

/** Characters a path segment may hold as they are (RFC 3986 pchar, plus `%` of an escape). */
const unsafeLiteralCharacters = /[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/gu;
const strayPercent = /%(?![0-9A-Fa-f]{2})/g;

/** A literal from a template, percent-encoded where a path cannot hold it (escapes already present stay). */
function encodeLiteral(text: string): string {
  return text
    .toWellFormed()
    .replace(strayPercent, "%25")
    .replace(unsafeLiteralCharacters, (character) => encodeURIComponent(character));
}

function encodeDots(segment: string): string {
  return segment === "." ? "%2E" : segment === ".." ? "%2E%2E" : segment;
}

/**
 * Compiles `template`; `placeholder` is a global regex whose first group is the placeholder's
 * name, `resolve` gives the placeholder its argument and encoder (undefined: kept as literal text).
 */
export function compilePath(
  template: string,
  placeholder: RegExp,
  resolve: (name: string) => PathPlaceholder | undefined,
): CompiledPath {
  const segments: Segment[] = [];
  for (const raw of template.split("/").slice(1)) {
    const pieces: Piece[] = [];
    let last = 0;
    for (const match of raw.matchAll(placeholder)) {
      const resolved = resolve(match[1] ?? "");
      if (!resolved) continue;
      if (match.index > last) pieces.push(encodeLiteral(raw.slice(last, match.index)));
      pieces.push(resolved);
      last = match.index + match[0].length;
    }
    if (last < raw.length) pieces.push(encodeLiteral(raw.slice(last)));
    const literal = pieces.every((piece) => typeof piece === "string");
    segments.push(literal ? `/${encodeDots(pieces.join(""))}` : pieces);
  }

  const renderSegment = (pieces: Piece[], args: Record<string, unknown>): string => {
    let text = "";
    for (const piece of pieces) text += typeof piece === "string" ? piece : piece.encode(args[piece.property]);
    return text;
  };
  const templated = segments.filter((segment): segment is Piece[] => typeof segment !== "string");

  return {
    render(args) {
      let path = "";
      for (const segment of segments) {
        path += typeof segment === "string" ? segment : `/${encodeDots(renderSegment(segment, args))}`;
      }
      return path === "" ? "/" : path;
    },
    check(args) {
      const violations: string[] = [];
      for (const pieces of templated) {
        const text = renderSegment(pieces, args);
        if (text !== "" && text !== "." && text !== "..") continue;
        const names = pieces.flatMap((piece) => (typeof piece === "string" ? [] : [piece.property])).join(", ");
        violations.push(
          text === ""
            ? `${names}: must not be empty (it is a path segment)`
            : `${names}: must not be "${text}" (it would leave the API's path)`,
        );
      }
      return violations;
    },
  };
}

/** `{{ name }}`: a CustomTools template placeholder. */
export const customToolPlaceholder = /\{\{\s*([^{}\s]+)\s*\}\}/g;
