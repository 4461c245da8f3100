/**
 * A tool's arguments as a form generated from its input schema: a field per property of a simple
 * type (string, number, integer, boolean, enum), required ones marked; a schema with anything
 * else (objects, arrays, unions) is edited as raw JSON, and so is any schema on request. A
 * prompt's arguments (strings) use the same form, with its own words.
 */
import { useId, useState } from "react";
import type { JsonSchema } from "./mcp-client.ts";
import { OutcomeView } from "./outcome.tsx";

type Kind = "string" | "number" | "integer" | "boolean" | "enum";

function kindOf(schema: JsonSchema): Kind | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === "string"))
    return "enum";
  const type = schema.type;
  return type === "string" || type === "number" || type === "integer" || type === "boolean" ? type : undefined;
}

/** The properties as simple fields, or undefined when the schema needs raw JSON. */
export function simpleFields(schema: JsonSchema | undefined): [string, JsonSchema, Kind][] | undefined {
  const properties = Object.entries(schema?.properties ?? {});
  const fields = properties.map(([name, property]) => [name, property, kindOf(property)] as const);
  if (fields.some(([, , kind]) => kind === undefined)) return undefined;
  return fields as [string, JsonSchema, Kind][];
}

/** The arguments the fields say, or what to fix. */
export function argumentsOf(
  fields: [string, JsonSchema, Kind][],
  required: string[],
  values: Record<string, string>,
): { args: Record<string, unknown> } | { problem: string } {
  const args: Record<string, unknown> = {};
  for (const [name, , kind] of fields) {
    const raw = values[name] ?? "";
    if (raw === "") {
      if (required.includes(name)) return { problem: `${name} is required` };
      continue;
    }
    if (kind === "boolean") args[name] = raw === "true";
    else if (kind === "number" || kind === "integer") {
      const value = Number(raw);
      if (!Number.isFinite(value) || (kind === "integer" && !Number.isInteger(value)))
        return { problem: `${name} must be ${kind === "integer" ? "a whole number" : "a number"}` };
      args[name] = value;
    } else args[name] = raw;
  }
  return { args };
}

/** The form's words for a tool; a prompt's form says its own. */
const TOOL_WORDS = { subject: "tool", submit: "Call the tool", busy: "Calling…" };

export function ArgumentsForm(props: {
  schema: JsonSchema | undefined;
  busy: boolean;
  onCall: (args: Record<string, unknown>) => void;
  words?: typeof TOOL_WORDS;
}) {
  const words = props.words ?? TOOL_WORDS;
  const fields = simpleFields(props.schema);
  const required = props.schema?.required ?? [];
  const [raw, setRaw] = useState(fields === undefined);
  const [values, setValues] = useState<Record<string, string>>({});
  const [json, setJson] = useState("{}");
  const [problem, setProblem] = useState<string>();
  const id = useId();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setProblem(undefined);
    if (raw || !fields) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch (error) {
        setProblem(`The arguments are not JSON: ${(error as Error).message}`);
        return;
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        setProblem("The arguments must be a JSON object, e.g. {}");
        return;
      }
      props.onCall(parsed as Record<string, unknown>);
      return;
    }
    const outcome = argumentsOf(fields, required, values);
    if ("problem" in outcome) setProblem(outcome.problem);
    else props.onCall(outcome.args);
  }

  return (
    <form className="arguments stacked" onSubmit={submit} noValidate>
      {fields && !raw ? (
        fields.length === 0 ? (
          <p className="muted">This {words.subject} takes no arguments.</p>
        ) : (
          fields.map(([name, property, kind]) => {
            const fieldId = `${id}-${name}`;
            const isRequired = required.includes(name);
            const label = (
              <label htmlFor={fieldId}>
                <span>
                  {name}
                  {isRequired ? <span aria-hidden="true"> *</span> : null}
                  <span className="muted"> ({kind === "enum" ? "one of" : kind})</span>
                </span>
              </label>
            );
            const set = (value: string) => setValues((all) => ({ ...all, [name]: value }));
            const describedBy = property.description ? `${fieldId}-help` : undefined;
            return (
              <div className="field" key={name}>
                {label}
                {kind === "enum" || kind === "boolean" ? (
                  <select
                    id={fieldId}
                    value={values[name] ?? ""}
                    required={isRequired}
                    aria-describedby={describedBy}
                    onChange={(event) => set(event.target.value)}
                  >
                    <option value="">{isRequired ? "Choose…" : "(not sent)"}</option>
                    {(kind === "boolean" ? ["true", "false"] : (property.enum as string[])).map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={fieldId}
                    inputMode={kind === "string" ? undefined : kind === "integer" ? "numeric" : "decimal"}
                    value={values[name] ?? ""}
                    required={isRequired}
                    aria-describedby={describedBy}
                    onChange={(event) => set(event.target.value)}
                  />
                )}
                {property.description ? (
                  <p className="help" id={describedBy}>
                    {property.description}
                  </p>
                ) : null}
              </div>
            );
          })
        )
      ) : (
        <div className="field">
          <label htmlFor={`${id}-json`}>Arguments (JSON object)</label>
          <textarea
            id={`${id}-json`}
            rows={6}
            className="code"
            value={json}
            spellCheck={false}
            onChange={(event) => setJson(event.target.value)}
          />
          {fields ? null : (
            <p className="help">
              This {words.subject}'s input schema has objects, arrays or unions: write the arguments as JSON.
            </p>
          )}
        </div>
      )}
      {required.length > 0 && fields && !raw ? <p className="help">* required</p> : null}
      <OutcomeView outcome={{ failure: problem }} />
      <div className="row">
        <button type="submit" disabled={props.busy}>
          {props.busy ? words.busy : words.submit}
        </button>
        {fields ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              if (!raw) {
                const outcome = argumentsOf(fields, [], values);
                setJson(JSON.stringify("args" in outcome ? outcome.args : {}, null, 2));
              }
              setRaw(!raw);
            }}
          >
            {raw ? "Use the form" : "Edit as JSON"}
          </button>
        ) : null}
      </div>
    </form>
  );
}
