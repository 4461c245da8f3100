/**
 * API tokens: the list (never the values), a new token's value shown once with a copy button and
 * a warning, and revocation behind a confirmation.
 */
import { type FormEvent, useState } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api } from "./api.ts";
import { RemoveButton } from "./confirm.tsx";
import { formatLabels, parseLabels } from "./labels.ts";
import { ListingView, useListing } from "./loaded.tsx";
import { OneTimeSecret } from "./one-time-secret.tsx";
import { FormButtons, type Outcome, OutcomeView, useSaving } from "./outcome.tsx";
import { Table } from "./table.tsx";
import { When } from "./when.tsx";

type Role = NonNullable<paths["/api/v1/api-tokens"]["post"]["requestBody"]["content"]["application/json"]["role"]>;
const ROLES: { value: Role; label: string }[] = [
  { value: "gateway", label: "gateway: registers gateways and reads their change stream" },
  { value: "operator", label: "operator: what the Kubernetes operator reconciles" },
  { value: "admin", label: "admin: the organization's records" },
];

export function ApiTokensPage() {
  const { listing, reload } = useListing(() => api.GET("/api/v1/api-tokens"));
  const [outcome, setOutcome] = useState<Outcome>({});

  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">API tokens</h1>
      <p className="lead">Tokens for gateways, the operator and automation. Their values are shown once, when made.</p>
      <OutcomeView outcome={outcome} />
      <ListingView listing={listing} what="API tokens" empty="No API tokens yet. Create one below." onRetry={reload}>
        {(items) => (
          <Table
            caption="API tokens"
            columns={[
              { label: "Name" },
              { label: "Role" },
              { label: "Bounds", wideOnly: true },
              { label: "Expires", wideOnly: true },
              { label: "Actions" },
            ]}
          >
            {items.map((token) => (
              <tr key={token.id}>
                <th scope="row">{token.name}</th>
                <td>{token.role}</td>
                <td className="wide-only">
                  {[
                    token.allowedFqdns ? `FQDNs: ${token.allowedFqdns.join(", ")}` : "",
                    token.requiredLabels ? `labels: ${formatLabels(token.requiredLabels).join(", ")}` : "",
                  ]
                    .filter(Boolean)
                    .join("; ") || <span className="muted">none</span>}
                </td>
                <td className="wide-only">
                  <When at={token.expiresAt} />
                </td>
                <td>
                  <RemoveButton
                    action="Revoke"
                    subject={`token ${token.name}`}
                    name={token.name}
                    consequence="Whatever uses it is refused from now on."
                    done={`Revoked the token ${token.name}.`}
                    remove={() => api.DELETE("/api/v1/api-tokens/{id}", { params: { path: { id: token.id } } })}
                    onOutcome={setOutcome}
                    onRemoved={reload}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      <TokenForm onCreated={reload} />
    </section>
  );
}

function TokenForm({ onCreated }: { onCreated: () => void }) {
  const { busy, failure, setFailure, save } = useSaving();
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const [role, setRole] = useState<Role>("gateway");

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    // A gateway token may be bound to FQDNs and labels; left empty, it is not.
    const fqdns = String(form.get("allowedFqdns") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    const labels = parseLabels(String(form.get("requiredLabels") ?? ""));
    if ("error" in labels) {
      setFailure(`Required labels: ${labels.error}. Write one key=value a line.`);
      return;
    }
    const bounds =
      role === "gateway"
        ? {
            ...(fqdns.length > 0 ? { allowedFqdns: fqdns } : {}),
            ...(Object.keys(labels.labels).length > 0 ? { requiredLabels: labels.labels } : {}),
          }
        : {};
    setCreated(undefined);
    const data = await save(
      () =>
        api.POST("/api/v1/api-tokens", {
          body: {
            name: String(form.get("name") ?? "").trim(),
            role,
            validityDays: Number(form.get("validityDays")),
            ...bounds,
          },
        }),
      "The token was not created",
    );
    if (!data) return;
    formElement.reset();
    setRole("gateway");
    setCreated({ name: data.name, token: data.token });
    onCreated();
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="token-form-title">
      <h2 id="token-form-title">Create an API token</h2>
      <div className="row">
        <label>
          Token name
          <input name="name" required autoComplete="off" placeholder="gateways-eu" />
        </label>
        <label>
          Valid for (days)
          <input name="validityDays" type="number" required defaultValue={90} />
        </label>
      </div>
      <label>
        Role
        <select name="role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {ROLES.map((role) => (
            <option key={role.value} value={role.value}>
              {role.label}
            </option>
          ))}
        </select>
      </label>
      {role === "gateway" ? (
        <>
          <div className="row">
            <label>
              Allowed FQDNs (optional)
              <input name="allowedFqdns" autoComplete="off" placeholder="*.gateways.example.com" />
            </label>
            <label>
              Required labels (optional)
              <textarea
                name="requiredLabels"
                rows={2}
                spellCheck={false}
                className="code"
                placeholder="env=production"
              />
            </label>
          </div>
          <p className="help">
            Gateways that register with the token may advertise only these FQDNs (exact, or <code>*.domain</code>,
            separated by spaces) and must carry these labels, one <code>key=value</code> a line.
          </p>
        </>
      ) : null}
      {created ? (
        <OneTimeSecret
          label={`The new token ${created.name}`}
          value={created.token}
          onDone={() => setCreated(undefined)}
        />
      ) : null}
      <FormButtons busy={busy} failure={failure} label="Create token" busyLabel="Creating…" />
    </form>
  );
}
