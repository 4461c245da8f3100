/**
 * The parts of a `multipart/mixed` body (RFC 2046 §5.1): what a backend answers to return several
 * documents at once. The body is whole (the result mapping reads at most the size limit), so this
 * splits a Buffer; no stream parser is needed.
 *
 * Delimiters are `--<boundary>` at the start of a line (CRLF, or a bare LF from lenient servers),
 * the last one `--<boundary>--`; a preamble and an epilogue are ignored. Each part has header lines
 * (names lower-cased, folded lines joined) and a body; `Content-Transfer-Encoding: base64` is
 * decoded, any other encoding is taken as the bytes sent (HTTP is 8-bit clean).
 */

export type MimePart = {
  /** Lower-case names; a part without `content-type` is `text/plain` (RFC 2046 §5.1). */
  headers: Record<string, string>;
  body: Buffer;
};

/** The parts (the first `maxParts`) and how many the body has, or why it is not well-formed multipart with this boundary. */
export type SplitMultipart = { parts: MimePart[]; total: number } | { problem: string };

const boundaryParameter = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i;

/** The `boundary` parameter of a multipart Content-Type, or undefined. */
export function boundaryOf(contentType: string): string | undefined {
  const match = boundaryParameter.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** Parts past `maxParts` are only counted: a body of many tiny parts costs no more than its first ones. */
export function splitMultipart(body: Buffer, boundary: string, maxParts = Number.POSITIVE_INFINITY): SplitMultipart {
  const delimiter = Buffer.from(`--${boundary}`);
  let start = delimiterAt(body, delimiter, 0);
  if (start < 0) return { problem: `no part delimiter --${boundary}` };
  const parts: MimePart[] = [];
  for (;;) {
    let cursor = start + delimiter.length;
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) return { parts, total: parts.length }; // "--": the close delimiter
    if (parts.length >= maxParts) return { parts, total: parts.length + partsFrom(body, delimiter, start) };
    while (body[cursor] === 0x20 || body[cursor] === 0x09) cursor++; // transport padding
    if (body[cursor] === 0x0d) cursor++;
    if (body[cursor] !== 0x0a)
      return { problem: `a delimiter is not followed by a line break (part ${parts.length + 1})` };
    const next = delimiterAt(body, delimiter, cursor + 1);
    if (next < 0) return { problem: `part ${parts.length + 1} has no closing delimiter --${boundary}--` };
    // The line break before a delimiter belongs to the delimiter.
    const end = body[next - 2] === 0x0d ? next - 2 : next - 1;
    parts.push(partOf(body.subarray(cursor + 1, Math.max(cursor + 1, end))));
    start = next;
  }
}

/** Where the next delimiter starts at the beginning of a line, from `from` (itself a line start). */
function delimiterAt(body: Buffer, delimiter: Buffer, from: number): number {
  for (let at = body.indexOf(delimiter, from); at >= 0; at = body.indexOf(delimiter, at + 1)) {
    if (at === from || body[at - 1] === 0x0a) return at;
  }
  return -1;
}

/** How many parts start at or after the delimiter at `start` (the close delimiter starts none). */
function partsFrom(body: Buffer, delimiter: Buffer, start: number): number {
  let count = 0;
  for (let at = start; at >= 0; at = delimiterAt(body, delimiter, at + delimiter.length)) {
    const end = at + delimiter.length;
    if (body[end] !== 0x2d || body[end + 1] !== 0x2d) count++;
  }
  return count;
}

function partOf(raw: Buffer): MimePart {
  let split = raw.indexOf("\r\n\r\n");
  let gap = 4;
  const lf = raw.indexOf("\n\n");
  if (lf >= 0 && (split < 0 || lf < split)) [split, gap] = [lf, 2];
  // A part that starts with its blank line has no headers.
  const headerless = raw[0] === 0x0a || (raw[0] === 0x0d && raw[1] === 0x0a);
  if (headerless) return { headers: {}, body: raw.subarray(raw[0] === 0x0a ? 1 : 2) };
  if (split < 0) return { headers: headersOf(raw.toString("latin1")), body: Buffer.alloc(0) };
  const headers = headersOf(raw.subarray(0, split).toString("latin1"));
  const content = raw.subarray(split + gap);
  const encoding = headers["content-transfer-encoding"]?.trim().toLowerCase();
  return { headers, body: encoding === "base64" ? Buffer.from(content.toString("latin1"), "base64") : content };
}

function headersOf(text: string): Record<string, string> {
  // No prototype: a part may send a header named __proto__.
  const headers: Record<string, string> = Object.create(null);
  // Folded lines (starting with white space) continue the header above them.
  for (const line of text.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}
