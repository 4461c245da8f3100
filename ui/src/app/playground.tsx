/**
 * The playground: the browser talks MCP to the gateway itself (mcp-client.ts), in either era,
 * with an API key or a pasted bearer token; lists the tools with their safety annotations, calls
 * one from a form generated from its input schema, and shows what came back (with the backend's
 * status); beside them the resources (playground-resources.tsx) and prompts
 * (playground-prompts.tsx). Credentials stay in this component's memory: never stored, never in a
 * URL.
 */
import { type FormEvent, useState } from "react";
import {
  type CallResult,
  type Credential,
  ERAS,
  type Era,
  type Exchange,
  McpClient,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "./mcp-client.ts";
import { OutcomeView } from "./outcome.tsx";
import { ExchangeFacts } from "./playground-exchange.tsx";
import { PromptsPanel } from "./playground-prompts.tsx";
import { ResourcesPanel } from "./playground-resources.tsx";
import { ArgumentsForm } from "./schema-form.tsx";
import { Table } from "./table.tsx";

const ANNOTATIONS: [keyof NonNullable<Tool["annotations"]>, string][] = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
];

/** The gateway's key for the backend's HTTP status in a tool result's `_meta` (docs/gateway.md). */
const BACKEND_STATUS_META_KEY = "dev.atrium/backendStatus";

interface Connection {
  client: McpClient;
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** Why the resources or prompts could not be listed (the tools were). */
  failures: string[];
}

export function Playground({ defaultUrl, oauth }: { defaultUrl: string; oauth: boolean }) {
  const [connection, setConnection] = useState<Connection>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [kind, setKind] = useState<Credential["kind"]>(oauth ? "bearer" : "apiKey");
  const [chosen, setChosen] = useState<Tool>();
  const [call, setCall] = useState<{ tool: string; exchange: Exchange<CallResult> }>();

  async function connect(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get("url") ?? "").trim();
    if (!URL.canParse(url) || !/^https?:/.test(url)) {
      setFailure("Enter the endpoint's URL, e.g. https://gateway.example.com/mcp/<organization>/<name>.");
      return;
    }
    const client = new McpClient(url, String(form.get("era")) as Era, {
      kind,
      value: String(form.get("credential") ?? "").trim(),
    });
    setBusy(true);
    setFailure(undefined);
    setConnection(undefined);
    setChosen(undefined);
    setCall(undefined);
    // The tools first: in the 2025-11-25 era it opens the session the other lists use.
    const listed = await client.listTools();
    if (!listed.result) {
      setBusy(false);
      setFailure(`Could not list the tools: ${listed.failure}`);
      return;
    }
    const [resources, templates, prompts] = await Promise.all([
      client.listResources(),
      client.listResourceTemplates(),
      client.listPrompts(),
    ]);
    setBusy(false);
    const failures = [
      [resources, "resources"],
      [templates, "resource templates"],
      [prompts, "prompts"],
    ] as const;
    setConnection({
      client,
      tools: listed.result.tools,
      resources: resources.result?.resources ?? [],
      templates: templates.result?.resourceTemplates ?? [],
      prompts: prompts.result?.prompts ?? [],
      failures: failures.flatMap(([answer, what]) =>
        answer.result ? [] : [`Could not list the ${what}: ${answer.failure}`],
      ),
    });
  }

  async function callTool(tool: Tool, args: Record<string, unknown>) {
    if (!connection) return;
    setBusy(true);
    setCall(undefined);
    const exchange = await connection.client.callTool(tool.name, args);
    setBusy(false);
    setCall({ tool: tool.name, exchange });
  }

  return (
    <div className="playground">
      <form className="card stacked" onSubmit={connect} aria-label="Connect to the endpoint" noValidate>
        <p className="help">
          The browser calls the gateway directly: the gateway must list this page's origin in
          ATRIUM_GATEWAY_CORS_ORIGINS, and the control plane the gateway's in ATRIUM_UI_GATEWAY_ORIGINS.
        </p>
        <label htmlFor="playground-url">Endpoint URL</label>
        <input id="playground-url" name="url" type="url" defaultValue={defaultUrl} autoComplete="off" />
        <fieldset className="choices">
          <legend>Protocol version</legend>
          {ERAS.map((era, index) => (
            <label className="choice" key={era}>
              <input type="radio" name="era" value={era} defaultChecked={index === 0} />
              {era === "2026-07-28" ? "2026-07-28 (stateless)" : "2025-11-25 (session, initialize first)"}
            </label>
          ))}
        </fieldset>
        <fieldset className="choices">
          <legend>Credential</legend>
          <label className="choice">
            <input type="radio" name="kind" checked={kind === "apiKey"} onChange={() => setKind("apiKey")} />
            API key (x-atrium-key)
          </label>
          <label className="choice">
            <input type="radio" name="kind" checked={kind === "bearer"} onChange={() => setKind("bearer")} />
            Bearer token (Authorization)
          </label>
        </fieldset>
        <label htmlFor="playground-credential">{kind === "apiKey" ? "API key" : "Bearer token"}</label>
        <input
          id="playground-credential"
          name="credential"
          type="password"
          autoComplete="off"
          aria-describedby="playground-credential-help"
        />
        <p className="help" id="playground-credential-help">
          Kept in this page only, never stored. Leave it empty for an open endpoint.
        </p>
        <button type="submit" disabled={busy}>
          {busy && !connection ? "Connecting…" : "Connect"}
        </button>
      </form>
      <OutcomeView outcome={{ failure }} />
      {connection ? (
        <ToolList
          tools={connection.tools}
          onChoose={(tool) => {
            setChosen(tool);
            setCall(undefined);
          }}
        />
      ) : null}
      {connection && chosen ? (
        <section className="card" aria-labelledby="tool-title">
          <h3 id="tool-title">
            Call <code>{chosen.name}</code>
          </h3>
          {chosen.description ? <p className="muted">{chosen.description}</p> : null}
          <ArgumentsForm
            key={chosen.name}
            schema={chosen.inputSchema}
            busy={busy}
            onCall={(args) => void callTool(chosen, args)}
          />
        </section>
      ) : null}
      {call ? <CallView tool={call.tool} exchange={call.exchange} /> : null}
      {connection?.failures.map((words) => (
        <OutcomeView key={words} outcome={{ failure: words }} />
      ))}
      {connection ? (
        <ResourcesPanel client={connection.client} resources={connection.resources} templates={connection.templates} />
      ) : null}
      {connection ? <PromptsPanel client={connection.client} prompts={connection.prompts} /> : null}
    </div>
  );
}

function ToolList({ tools, onChoose }: { tools: Tool[]; onChoose: (tool: Tool) => void }) {
  if (tools.length === 0) {
    return (
      <p className="placeholder" role="status">
        The endpoint lists no tools.
      </p>
    );
  }
  return (
    <Table
      caption="Tools"
      columns={[{ label: "Tool (choose one to try it)" }, { label: "Description", wideOnly: true }, { label: "Hints" }]}
    >
      {tools.map((tool) => {
        const hints = ANNOTATIONS.filter(([key]) => tool.annotations?.[key] === true).map(([, label]) => label);
        return (
          <tr key={tool.name}>
            <th scope="row">
              <button type="button" className="secondary tool-name" onClick={() => onChoose(tool)}>
                <span className="visually-hidden">Try </span>
                <code>{tool.name}</code>
              </button>
            </th>
            <td className="wide-only">{tool.description ?? tool.title ?? ""}</td>
            <td>
              {hints.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                hints.map((hint) => (
                  <span key={hint} className={hint === "destructive" ? "badge stale" : "badge"}>
                    {hint}
                  </span>
                ))
              )}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/**
 * The backend's HTTP status, from the result's `_meta`; with its reason when the text starts with
 * the status line (failures do). None: the gateway answered itself (a timeout, a refusal).
 */
function backendStatus(result: CallResult): string {
  const status = result._meta?.[BACKEND_STATUS_META_KEY];
  if (typeof status !== "number") return "none: the backend was not called or did not answer";
  const first = result.content?.find((block) => block.type === "text")?.text ?? "";
  const line = first.split("\n", 1)[0] ?? "";
  return line === `HTTP ${status}` || line.startsWith(`HTTP ${status} `) ? line : `HTTP ${status}`;
}

function CallView({ tool, exchange }: { tool: string; exchange: Exchange<CallResult> }) {
  const { result } = exchange;
  return (
    <section className={`card result${result?.isError || !result ? " failed" : ""}`} aria-labelledby="result-title">
      <h3 id="result-title">Result of {tool}</h3>
      <ExchangeFacts exchange={exchange} what="The call">
        <div>
          <dt>isError</dt>
          <dd>{result ? String(result.isError === true) : "no result"}</dd>
        </div>
        {result ? (
          <div>
            <dt>Backend status</dt>
            <dd>{backendStatus(result)}</dd>
          </div>
        ) : null}
      </ExchangeFacts>
      {result?.isError ? (
        <p className="error" role="alert">
          The tool answered with an error (isError).
        </p>
      ) : null}
      {result?.content?.length ? (
        <>
          <h4>Content</h4>
          {result.content.map((block, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: content blocks have no identity but their order
            <pre key={index}>
              {block.type === "text" ? block.text : `${block.type}${block.mimeType ? ` (${block.mimeType})` : ""}`}
            </pre>
          ))}
        </>
      ) : null}
      {result && result.structuredContent !== undefined ? (
        <>
          <h4>structuredContent</h4>
          <pre>{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </>
      ) : null}
    </section>
  );
}
