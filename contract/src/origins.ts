/**
 * Web origins in configuration (`https://ui.example.com, http://localhost:5173`): the browser
 * origins a gateway answers with CORS, the gateway origins the web UI may connect to. Exact
 * origins only: a wildcard, a path or a non-http(s) value stops the start with the value named.
 */
export function parseOrigins(variable: string, text: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (text ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, "").toLowerCase()) {
      throw new Error(
        `${variable}: '${entry}' is not an origin: write scheme://host[:port], e.g. https://atrium.example.com (no path, no wildcard)`,
      );
    }
    origins.push(url.origin);
  }
  return origins;
}
