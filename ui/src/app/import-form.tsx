/**
 * Imports an OpenAPI document as a Service, from a file, a URL or pasted text (POST
 * /api/v1/services). A refused document shows the importer's words and where it is wrong: line,
 * column, JSON pointer, and the offending line of the text when the text is at hand. An accepted
 * one lists the importer's warnings: the patterns it rewrote or dropped so every client compiles
 * the tools' schemas.
 */
import { type FormEvent, useId, useState } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api, attempt, describeFailure, type SourceLocation } from "./api.ts";

export type ServiceView = paths["/api/v1/services"]["post"]["responses"][201]["content"]["application/json"];

type Source = "paste" | "file" | "url";
const SOURCES: { value: Source; label: string }[] = [
  { value: "paste", label: "Paste" },
  { value: "file", label: "File" },
  { value: "url", label: "URL" },
];

interface Failure {
  message: string;
  location: SourceLocation | undefined;
  /** The submitted text, to quote the offending line (none for a URL: the control plane downloaded it). */
  text: string | undefined;
}

export function ImportForm({ onImported }: { onImported: () => void }) {
  const [source, setSource] = useState<Source>("paste");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const [done, setDone] = useState<string>();
  const [warnings, setWarnings] = useState<ServiceView["importWarnings"]>([]);
  const ids = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = String(form.get("name") ?? "").trim();
    const version = String(form.get("version") ?? "").trim();
    let text: string | undefined;
    if (source === "paste") text = String(form.get("document") ?? "");
    if (source === "file") {
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) {
        setFailure({ message: "Choose the OpenAPI file to import.", location: undefined, text: undefined });
        return;
      }
      text = await file.text();
    }
    const openapi = text === undefined ? { url: String(form.get("url") ?? "").trim() } : { inline: text };
    setBusy(true);
    setFailure(undefined);
    setDone(undefined);
    setWarnings([]);
    const { data, error, response } = await attempt(() =>
      api.POST("/api/v1/services", { body: { name, version, openapi } }),
    );
    setBusy(false);
    if (!data) {
      setFailure({ message: describeFailure(error, response), location: error?.location, text });
      return;
    }
    formElement.reset();
    setWarnings(data.importWarnings);
    setDone(
      `Imported ${data.name} ${data.version}: ${data.operationCount} operation${data.operationCount === 1 ? "" : "s"}.`,
    );
    onImported();
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Import an OpenAPI document</h2>
      <div className="row">
        <label>
          Name
          <input name="name" required autoComplete="off" placeholder="petstore" />
        </label>
        <label>
          Version
          <input name="version" required autoComplete="off" defaultValue="1.0.0" />
        </label>
      </div>
      <fieldset className="choices">
        <legend>Source</legend>
        {SOURCES.map((choice) => (
          <label key={choice.value} className="choice">
            <input
              type="radio"
              name="source"
              value={choice.value}
              checked={source === choice.value}
              onChange={() => setSource(choice.value)}
            />
            {choice.label}
          </label>
        ))}
      </fieldset>
      {source === "paste" ? (
        <label>
          OpenAPI document (JSON or YAML)
          <textarea name="document" required rows={12} spellCheck={false} className="code" />
        </label>
      ) : null}
      {source === "file" ? (
        <label>
          OpenAPI file
          <input name="file" type="file" accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" />
        </label>
      ) : null}
      {source === "url" ? (
        <label>
          Document URL
          <input name="url" type="url" required placeholder="https://api.example.com/openapi.json" />
        </label>
      ) : null}
      {failure ? <ImportFailure failure={failure} /> : null}
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {warnings.length > 0 ? (
        <ul className="warning" aria-label="Import warnings">
          {warnings.map((warning) => (
            <li key={`${warning.code} ${warning.location?.pointer}`}>{warning.message}</li>
          ))}
        </ul>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? "Importing…" : "Import"}
      </button>
    </form>
  );
}

function ImportFailure({ failure }: { failure: Failure }) {
  const { location, text } = failure;
  const line = location?.line;
  const quoted = line !== undefined && text !== undefined ? text.split(/\r?\n/)[line - 1] : undefined;
  return (
    <div className="error" role="alert">
      <p>The document was not imported: {failure.message}</p>
      {line !== undefined ? (
        <p className="where">
          Line {line}
          {location?.column !== undefined ? `, column ${location.column}` : ""}
          {location?.pointer !== undefined ? (
            <>
              {" "}
              at <code>{location.pointer || "the document root"}</code>
            </>
          ) : null}
        </p>
      ) : null}
      {quoted !== undefined ? <pre className="excerpt">{excerpt(line ?? 0, quoted, location?.column)}</pre> : null}
    </div>
  );
}

/** `12 | the line` and, under it, a caret at the column. */
function excerpt(line: number, text: string, column: number | undefined): string {
  const prefix = `${line} | `;
  return column === undefined ? prefix + text : `${prefix}${text}\n${" ".repeat(prefix.length + column - 1)}^`;
}
