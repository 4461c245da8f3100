/**
 * The form of a configuration plan, for creating and editing: every field of the REST body,
 * grouped in fieldsets with help text. A refused save keeps everything typed, shows the control
 * plane's words above the button and each field's reason beside it.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { api, attempt, describeFailure, type Problem } from "./api.ts";
import {
  type FieldError,
  fieldOf,
  type KeptSource,
  keptSecretText,
  type PlanBody,
  type PlanForm,
  planBodyOf,
} from "./plan-fields.ts";
import { CheckInput, ChoiceInput, type FormKit, SelectInput, TextInput } from "./plan-inputs.tsx";

export interface Choice {
  id: string;
  name: string;
}

/** Where a secret comes from, for the backend credential and for the client secret. */
const SECRET_FROM: { value: "secretId" | "env"; label: string }[] = [
  { value: "secretId", label: "A stored secret" },
  { value: "env", label: "A variable of the gateway's environment" },
];

/** The sources the form keeps as saved, offered only for a plan saved with one (change it with the CLI or REST). */
const KEPT_SOURCES: Record<KeptSource, string> = {
  tokenExchange: "Each caller's token exchanged (RFC 8693), kept as saved",
  oauth2AuthorizationCode: "Each user's own authorization (OAuth authorization code), kept as saved",
};

/** What a save answered: nothing when it worked, else the problem (or that nothing answered). */
export type SaveOutcome = { ok: true } | { ok: false; error: Problem | undefined; response: Response | undefined };

export function PlanEditor(props: {
  initial: PlanForm;
  services: (Choice & { version: string })[];
  secrets: Choice[];
  submitLabel: string;
  onSave: (body: PlanBody) => Promise<SaveOutcome>;
}) {
  const [form, setForm] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; errors: FieldError[] }>();
  const summary = useRef<HTMLDivElement>(null);
  const operations = useOperations(form.serviceId);

  const problems: FormKit["problems"] = {};
  for (const error of failure?.errors ?? []) {
    const key = fieldOf(error);
    if (key && !problems[key]) problems[key] = error.message;
  }
  const kit: FormKit = { form, update: (key, value) => setForm((current) => ({ ...current, [key]: value })), problems };

  useEffect(() => {
    if (failure) summary.current?.focus();
  }, [failure]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = planBodyOf(form);
    if ("errors" in read) {
      setFailure({ message: "Some fields cannot be read: see the reasons beside them.", errors: read.errors });
      return;
    }
    setBusy(true);
    setFailure(undefined);
    const outcome = await props.onSave(read.body);
    setBusy(false);
    if (!outcome.ok) {
      setFailure({ message: describeFailure(outcome.error, outcome.response), errors: outcome.error?.errors ?? [] });
    }
  }

  const secretOptions = [{ value: "", label: "Choose a stored secret" }, ...props.secrets.map(optionOf)];
  // The plan's saved source among those kept as saved, if it has one.
  const keptSources = (Object.keys(KEPT_SOURCES) as KeptSource[]).filter((source) => form.keptSecret?.[source]);
  const keptChosen = keptSources.some((source) => source === form.secretSource);
  return (
    <form className="card plan-form" onSubmit={submit} noValidate aria-label="Configuration plan">
      <fieldset>
        <legend>Plan</legend>
        <TextInput kit={kit} field="name" label="Name" required help="Lower-case letters, digits, dashes and dots." />
        <SelectInput
          kit={kit}
          field="serviceId"
          label="Service"
          help="The imported API whose operations become tools."
          options={[
            { value: "", label: "Choose a service" },
            ...props.services.map((s) => ({ value: s.id, label: `${s.name} ${s.version}` })),
          ]}
        />
        <TextInput
          kit={kit}
          field="backendEndpoint"
          label="Backend endpoint"
          type="url"
          required
          placeholder="https://api.example.com"
          help="Base address of the backend; operation paths are appended to it."
        />
        <TextInput
          kit={kit}
          field="backendTimeoutMs"
          label="Backend timeout (ms)"
          type="number"
          help="Time the backend has to answer; past it the tool result is a gateway-generated 504. 30000 by default."
        />
      </fieldset>

      <fieldset>
        <legend>Tools</legend>
        <ChoiceInput
          kit={kit}
          field="toolExposureMode"
          legend="Exposure mode"
          choices={[
            { value: "PerOperation", label: "One tool per operation", help: "Each included operation is a tool." },
            {
              value: "Discovery",
              label: "Discovery",
              help: "Three tools (search, describe, invoke) for APIs too large to list.",
            },
          ]}
        />
        <TextInput
          kit={kit}
          field="includedOperations"
          label="Included operations"
          help={`operationIds to expose, separated by commas; all operations when empty. ${operations}`}
        />
        <TextInput
          kit={kit}
          field="excludedOperations"
          label="Excluded operations"
          help="operationIds never exposed as tools, separated by commas."
        />
      </fieldset>

      <fieldset>
        <legend>Client access</legend>
        <ChoiceInput
          kit={kit}
          field="clientAuth"
          legend="Who may call the endpoint"
          choices={[
            { value: "none", label: "Anyone who can reach it", help: "No authentication at the gateway." },
            {
              value: "apiKey",
              label: "API key",
              help: "Clients send a generated key in the x-atrium-key header. A new key is shown once, after saving.",
            },
            {
              value: "oauth",
              label: "OAuth bearer token",
              help: "Every request needs a valid token from the issuer below (Authorization: Bearer).",
            },
          ]}
        />
        {form.clientAuth === "oauth" ? (
          <div className="nested">
            <TextInput
              kit={kit}
              field="oauthIssuer"
              label="Issuer"
              type="url"
              required
              help="Compared exactly with iss."
            />
            <TextInput
              kit={kit}
              field="oauthAudience"
              label="Audience"
              help="aud that tokens must carry; the endpoint's resource URL when empty."
            />
            <TextInput
              kit={kit}
              field="oauthJwksUri"
              label="JWKS URI"
              type="url"
              help="Where the issuer's signing keys are; read from the issuer's metadata when empty."
            />
            <TextInput
              kit={kit}
              field="oauthResource"
              label="Resource"
              help="Protected-resource identifier published in the endpoint's metadata (RFC 9728); the URL clients call when empty."
            />
            <TextInput
              kit={kit}
              field="oauthRequiredScopes"
              label="Required scopes"
              help="Scopes every token must carry, separated by spaces."
            />
            <TextInput
              kit={kit}
              field="oauthToolScopes"
              label="Scopes per tool"
              rows={3}
              placeholder="deletePet: pets.write"
              help="One line a tool: tool: scope scope. Callers see and call only the tools their scopes allow."
            />
          </div>
        ) : null}
      </fieldset>

      <fieldset>
        <legend>Backend credential</legend>
        <SelectInput
          kit={kit}
          field="secretSource"
          label="What the gateway sends to the backend"
          help={
            keptChosen && form.keptSecret
              ? `${keptSecretText(form.keptSecret)} Change it with the atrium CLI or the REST API.`
              : "Secret values are never shown here: a stored secret is chosen by name."
          }
          options={[
            { value: "none", label: "Nothing" },
            ...SECRET_FROM,
            { value: "oauth2ClientCredentials", label: "A token from OAuth client credentials" },
            { value: "elicit", label: "Ask each user (MCP URL elicitation)" },
            ...keptSources.map((source) => ({ value: source, label: KEPT_SOURCES[source] })),
          ]}
        />
        {form.secretSource === "secretId" ? (
          <SelectInput
            kit={kit}
            field="secretId"
            label="Stored secret"
            help={props.secrets.length === 0 ? "No secrets are stored yet: add one on the Secrets page." : undefined}
            options={secretOptions}
          />
        ) : null}
        {form.secretSource === "env" ? (
          <TextInput
            kit={kit}
            field="secretEnv"
            label="Environment variable"
            placeholder="${env:PETSTORE_TOKEN}"
            help="Written ${env:VARIABLE}; read once when the gateway starts."
          />
        ) : null}
        {form.secretSource === "elicit" ? (
          <>
            <TextInput
              kit={kit}
              field="elicitDescription"
              label="What the user is asked for"
              help="Shown on the page where each user enters the credential."
            />
            <TextInput
              kit={kit}
              field="elicitSignInClientId"
              label="Sign-in client id"
              help="To make users sign in at the OAuth issuer first (needs OAuth above): the page's public client id. Empty: no sign-in."
            />
          </>
        ) : null}
        {form.secretSource === "oauth2ClientCredentials" ? (
          <div className="nested">
            <TextInput
              kit={kit}
              field="tokenUrl"
              label="Token URL"
              type="url"
              help="The authorization server's token endpoint."
            />
            <TextInput kit={kit} field="clientId" label="Client id" help="The gateway's client id there." />
            <SelectInput kit={kit} field="clientSecretSource" label="Client secret from" options={SECRET_FROM} />
            {form.clientSecretSource === "secretId" ? (
              <SelectInput kit={kit} field="clientSecretId" label="Stored client secret" options={secretOptions} />
            ) : (
              <TextInput
                kit={kit}
                field="clientSecretEnv"
                label="Client secret variable"
                placeholder="${env:PETSTORE_CLIENT_SECRET}"
              />
            )}
            <SelectInput
              kit={kit}
              field="tokenEndpointAuthMethod"
              label="Client authentication"
              options={[
                { value: "client_secret_basic", label: "HTTP Basic (client_secret_basic)" },
                { value: "client_secret_post", label: "In the form body (client_secret_post)" },
              ]}
            />
            <TextInput kit={kit} field="tokenScopes" label="Scopes" help="Asked for, separated by spaces." />
            <TextInput kit={kit} field="tokenAudience" label="Audience" help="Sent as audience when set." />
            <TextInput kit={kit} field="tokenResource" label="Resource" help="Sent as resource (RFC 8707) when set." />
          </div>
        ) : null}
        {/* A token from an OAuth grant always goes in Authorization as a bearer: no placement. */}
        {form.secretSource === "secretId" || form.secretSource === "env" || form.secretSource === "elicit" ? (
          <div className="row">
            <SelectInput
              kit={kit}
              field="secretIn"
              label="Sent in"
              options={[
                { value: "header", label: "A header" },
                { value: "query", label: "A query parameter" },
              ]}
            />
            <TextInput kit={kit} field="secretName" label="Header or parameter name" />
            <TextInput
              kit={kit}
              field="secretPrefix"
              label="Prefix"
              placeholder="Bearer "
              help="Put before the value."
            />
          </div>
        ) : null}
      </fieldset>

      <fieldset>
        <legend>Headers</legend>
        <TextInput
          kit={kit}
          field="forwardRequestHeaders"
          label="Client headers passed to the backend"
          help="Names separated by commas; none by default."
        />
        <TextInput
          kit={kit}
          field="renameRequestHeaders"
          label="Renamed client headers"
          rows={2}
          placeholder="x-tenant: x-backend-tenant"
          help="One line a header: client name: backend name."
        />
        <TextInput
          kit={kit}
          field="setRequestHeaders"
          label="Fixed headers sent to the backend"
          rows={2}
          placeholder="x-source: atrium"
          help="One line a header: name: value."
        />
        <TextInput
          kit={kit}
          field="forwardResponseHeaders"
          label="Backend headers copied into the result"
          help="Names separated by commas; none by default."
        />
      </fieldset>

      <fieldset>
        <legend>Limits</legend>
        <p className="help">Enforced by each gateway replica on its own; empty means no limit.</p>
        <div className="row">
          <TextInput kit={kit} field="requestsPerSecond" label="Calls per second" type="number" />
          <TextInput kit={kit} field="burst" label="Burst" type="number" help="Needs calls per second." />
          <TextInput kit={kit} field="concurrentCalls" label="Concurrent calls" type="number" />
        </div>
        <SelectInput
          kit={kit}
          field="limitsPer"
          label="Whose budget a call spends"
          options={[
            { value: "plan", label: "The plan's: one budget for all callers" },
            { value: "caller", label: "Each caller's (OAuth plans only)" },
          ]}
        />
        <TextInput
          kit={kit}
          field="toolLimits"
          label="Limits of single tools (JSON)"
          rows={3}
          placeholder='{ "getPet": { "requestsPerSecond": 2, "burst": 4, "concurrentCalls": 1 } }'
          help="By tool name, one tool per operation plans only."
        />
      </fieldset>

      <fieldset>
        <legend>Circuit breaker</legend>
        <CheckInput
          kit={kit}
          field="breakerEnabled"
          label="Stop calling a backend that cannot be reached"
          help="While open, calls answer an error at once, saying when to retry."
        />
        <div className="row">
          <TextInput
            kit={kit}
            field="consecutiveFailures"
            label="Failures before it opens"
            type="number"
            help="Calls in a row that do not reach the backend."
          />
          <TextInput
            kit={kit}
            field="coolDownSeconds"
            label="Cool-down (seconds)"
            type="number"
            help="Then one trial call goes through."
          />
        </div>
      </fieldset>

      <fieldset>
        <legend>Missing arguments</legend>
        <CheckInput
          kit={kit}
          field="elicitMissingArguments"
          label="Ask the user for required arguments a call lacks"
          help="Protocol 2026-07-28, clients with form elicitation; needs the gateways' cluster key. Not with a backend key each user gives."
        />
      </fieldset>

      <fieldset>
        <legend>Audit</legend>
        <CheckInput
          kit={kit}
          field="audit"
          label="Record an audit event for each authentication decision and tool call"
          help="A JSON line, and an OTLP log when configured."
        />
      </fieldset>

      {failure ? (
        <div className="error" role="alert" tabIndex={-1} ref={summary}>
          <p>The plan was not saved: {failure.message}</p>
          {failure.errors.length > 0 ? (
            <ul>
              {failure.errors.map((error) => (
                <li key={`${error.field}:${error.message}`}>
                  <code>{error.field.replace(/^body\./, "")}</code>: {error.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? "Saving…" : props.submitLabel}
      </button>
    </form>
  );
}

function optionOf(secret: Choice) {
  return { value: secret.id, label: secret.name };
}

/** The chosen Service's operationIds, as help text ("" until known). */
function useOperations(serviceId: string): string {
  const [operations, setOperations] = useState("");
  useEffect(() => {
    setOperations("");
    if (!serviceId) return;
    let current = true;
    void attempt(() => api.GET("/api/v1/services/{id}", { params: { path: { id: serviceId } } })).then(({ data }) => {
      if (current && data) setOperations(`This service has ${data.operations.map((o) => o.operationId).join(", ")}.`);
    });
    return () => {
      current = false;
    };
  }, [serviceId]);
  return operations;
}
