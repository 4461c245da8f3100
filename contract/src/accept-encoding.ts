/** Content negotiation both servers need: the gateway for its MCP answers, the control plane for the web UI's files. */

/** Whether an Accept-Encoding header (RFC 9110 §12.5.3) accepts gzip: named, or `*`, with a q above 0. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  let gzip: boolean | undefined;
  let any: boolean | undefined;
  for (const part of (Array.isArray(header) ? header.join(",") : header).split(",")) {
    const [name = "", ...parameters] = part.split(";");
    const coding = name.trim().toLowerCase();
    const q = parameters.map((parameter) => parameter.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") gzip = accepted;
    else if (coding === "*") any = accepted;
  }
  return gzip ?? any ?? false;
}
