/** Content negotiation both servers need: the gateway for its MCP answers, the control plane for the web UI's files. */

/** The parts of an Accept or Accept-Encoding header, one per listed name. */
function partsOf(header: string | string[]): string[] {
  return (Array.isArray(header) ? header.join(",") : header).split(",");
}

/** One part's name (lower case), and whether its q is above 0. */
function entry(part: string): { name: string; accepted: boolean } {
  const [name = "", ...parameters] = part.split(";");
  const q = parameters.map((parameter) => parameter.trim().toLowerCase()).find((p) => p.startsWith("q="));
  return { name: name.trim().toLowerCase(), accepted: q === undefined || Number(q.slice(2)) > 0 };
}

/** Whether an Accept-Encoding header (RFC 9110 §12.5.3) accepts gzip: named, or `*`, with a q above 0. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  let gzip: boolean | undefined;
  let any: boolean | undefined;
  for (const part of partsOf(header)) {
    const { name, accepted } = entry(part);
    if (name === "gzip" || name === "x-gzip") gzip = accepted;
    else if (name === "*") any = accepted;
  }
  return gzip ?? any ?? false;
}

/**
 * Whether an Accept header (RFC 9110 §12.5.1) names `text/event-stream` with a q above 0. Only by
 * name: MCP clients that read server-sent events list it, and one that accepts anything may not read them.
 */
export function acceptsEventStream(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  for (const part of partsOf(header)) {
    const { name, accepted } = entry(part);
    if (name === "text/event-stream") return accepted;
  }
  return false;
}
