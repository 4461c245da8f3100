/**
 * Ready-to-paste client configurations for an Exposition's endpoint, in each client's documented
 * format for a remote (Streamable HTTP) server with a header. The key is never written in: VS
 * Code prompts for it, the others hold a placeholder to replace.
 */

/** The header an API-key plan expects (the gateway's client-auth.ts). */
export const API_KEY_HEADER = "x-atrium-key";
const PLACEHOLDER = "<your API key>";

/** The endpoint's URL on a gateway FQDN: http for loopback names (a local gateway), https otherwise. */
export function endpointUrl(fqdn: string, organization: string, name: string): string {
  const host = fqdn.replace(/:\d+$/, "").toLowerCase();
  const local = host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  return `${local ? "http" : "https"}://${fqdn}/mcp/${encodeURIComponent(organization)}/${encodeURIComponent(name)}`;
}

export interface ClientConfig {
  client: string;
  /** Where the snippet goes. */
  where: string;
  text: string;
}

/** VS Code (.vscode/mcp.json), Claude Desktop (claude_desktop_config.json via mcp-remote), Cursor (.cursor/mcp.json), curl. */
export function clientConfigs(name: string, url: string, apiKey: boolean): ClientConfig[] {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const vsCode = json({
    ...(apiKey
      ? { inputs: [{ type: "promptString", id: "atrium-key", description: `API key of ${name}`, password: true }] }
      : {}),
    servers: {
      [name]: { type: "http", url, ...(apiKey ? { headers: { [API_KEY_HEADER]: "${input:atrium-key}" } } : {}) },
    },
  });
  // Claude Desktop's file starts local (stdio) servers only: mcp-remote bridges to the remote
  // endpoint. The header's value comes from env (no space after the colon: Windows splits args on it).
  const claude = json({
    mcpServers: {
      [name]: {
        command: "npx",
        args: ["-y", "mcp-remote", url, ...(apiKey ? ["--header", `${API_KEY_HEADER}:\${ATRIUM_KEY}`] : [])],
        ...(apiKey ? { env: { ATRIUM_KEY: PLACEHOLDER } } : {}),
      },
    },
  });
  const cursor = json({
    mcpServers: { [name]: { url, ...(apiKey ? { headers: { [API_KEY_HEADER]: PLACEHOLDER } } : {}) } },
  });
  const curl = [
    `curl -sS ${shellQuote(url)} \\`,
    "  -H 'content-type: application/json' \\",
    "  -H 'accept: application/json, text/event-stream' \\",
    "  -H 'mcp-protocol-version: 2026-07-28' \\",
    "  -H 'mcp-method: tools/list' \\",
    ...(apiKey ? [`  -H "${API_KEY_HEADER}: $ATRIUM_KEY" \\`] : []),
    `  -d '${JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "curl", version: "1" },
        },
      },
    })}'`,
  ].join("\n");
  return [
    { client: "VS Code", where: ".vscode/mcp.json (or the user's mcp.json); VS Code asks for the key", text: vsCode },
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json (through mcp-remote, which needs Node.js)",
      text: claude,
    },
    { client: "Cursor", where: ".cursor/mcp.json in the project, or ~/.cursor/mcp.json", text: cursor },
    {
      client: "curl",
      where: apiKey ? "a shell, with ATRIUM_KEY set to the API key" : "a shell",
      text: curl,
    },
  ];
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
