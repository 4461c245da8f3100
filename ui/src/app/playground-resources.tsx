/**
 * The playground's resources: the endpoint's resources (choose one to read it) and its resource
 * templates (choose one to fill in its URI, then read it), and what a read gave back.
 */
import { type FormEvent, useState } from "react";
import type { Exchange, McpClient, Resource, ResourceContents, ResourceTemplate } from "./mcp-client.ts";
import { ChoicePanel, type ChoiceRow, ExchangeFacts } from "./playground-exchange.tsx";

export function ResourcesPanel(props: { client: McpClient; resources: Resource[]; templates: ResourceTemplate[] }) {
  const [uri, setUri] = useState("");
  const [busy, setBusy] = useState(false);
  const [read, setRead] = useState<{ uri: string; exchange: Exchange<{ contents: ResourceContents[] }> }>();

  async function readUri(chosen: string) {
    setUri(chosen);
    setBusy(true);
    setRead(undefined);
    const exchange = await props.client.readResource(chosen);
    setBusy(false);
    setRead({ uri: chosen, exchange });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uri.trim()) void readUri(uri.trim());
  }

  const rows: ChoiceRow[] = [
    ...props.resources.map((resource) => ({
      id: resource.uri,
      action: "Read",
      note: resource.name,
      description: resource.description ?? resource.title,
      onChoose: () => void readUri(resource.uri),
    })),
    ...props.templates.map((template) => ({
      id: template.uriTemplate,
      action: "Fill in",
      note: `${template.name} (template: fill in its URI)`,
      description: template.description ?? template.title,
      onChoose: () => setUri(template.uriTemplate),
    })),
  ];
  return (
    <ChoicePanel
      title="Resources"
      heading="Resource (choose one to read it)"
      empty="The endpoint lists no resources."
      rows={rows}
    >
      <h4 id="resource-read-title">Read by URI</h4>
      <form className="arguments stacked" onSubmit={submit} aria-labelledby="resource-read-title" noValidate>
        <div className="field">
          <label htmlFor="resource-uri">Resource URI</label>
          <input
            id="resource-uri"
            value={uri}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setUri(event.target.value)}
          />
        </div>
        <div className="row">
          <button type="submit" disabled={busy || !uri.trim()}>
            {busy ? "Reading…" : "Read"}
          </button>
        </div>
      </form>
      {read ? <ReadView uri={read.uri} exchange={read.exchange} /> : null}
    </ChoicePanel>
  );
}

function ReadView({ uri, exchange }: { uri: string; exchange: Exchange<{ contents: ResourceContents[] }> }) {
  return (
    <section className={`result${exchange.result ? "" : " failed"}`} aria-label={`Contents of ${uri}`}>
      <h4>Contents of {uri}</h4>
      <ExchangeFacts exchange={exchange} what="The read" />
      {exchange.result?.contents.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a resource's contents have no identity but their order
        <div key={index}>
          <p className="muted">
            <code>{item.uri}</code>
            {item.mimeType ? ` (${item.mimeType})` : ""}
          </p>
          <pre>{item.text ?? `${Math.floor(((item.blob ?? "").length * 3) / 4)} bytes, base64`}</pre>
        </div>
      ))}
    </section>
  );
}
