/**
 * Secrets, write-only: the list shows names and dates; a value is typed to create or replace a
 * secret and is never shown, echoed or read back (the API has no way to read it).
 */
import type { FormEvent } from "react";
import { api } from "./api.ts";
import { RemoveButton } from "./confirm.tsx";
import { useEditing } from "./editing.ts";
import { ListingView, useListing } from "./loaded.tsx";
import { FormButtons, OutcomeView, useSaving } from "./outcome.tsx";
import { Table } from "./table.tsx";
import { When } from "./when.tsx";

export function SecretsPage() {
  const { listing, reload } = useListing(() => api.GET("/api/v1/secrets"));
  const edits = useEditing<{ id: string; name: string }>(reload);

  return (
    <section aria-labelledby="secrets-title">
      <h1 id="secrets-title">Secrets</h1>
      <p className="lead">
        Values that plans use without showing them, such as backend credentials. A value can be replaced, never read.
      </p>
      <OutcomeView outcome={edits.outcome} />
      <ListingView listing={listing} what="secrets" empty="No secrets yet. Create one below." onRetry={reload}>
        {(items) => (
          <Table
            caption="Secrets"
            columns={[{ label: "Name" }, { label: "Updated", wideOnly: true }, { label: "Actions" }]}
          >
            {items.map((secret) => (
              <tr key={secret.id}>
                <th scope="row">{secret.name}</th>
                <td className="wide-only">
                  <When at={secret.updatedAt} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Replace the value of ${secret.name}`}
                    onClick={() => edits.edit({ id: secret.id, name: secret.name })}
                  >
                    Replace
                  </button>
                  <RemoveButton
                    subject={`secret ${secret.name}`}
                    name={secret.name}
                    consequence="Plans that use it can no longer reach their backend with it."
                    done={`Deleted the secret ${secret.name}.`}
                    remove={() => api.DELETE("/api/v1/secrets/{id}", { params: { path: { id: secret.id } } })}
                    onOutcome={edits.removed(secret.id)}
                    onRemoved={reload}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      <SecretForm key={edits.formKey} replacing={edits.editing} onCancel={edits.cancel} onSaved={edits.saved} />
    </section>
  );
}

/** Creates a secret, or replaces the value of `replacing`. The value field is emptied whatever the answer. */
function SecretForm(props: {
  replacing: { id: string; name: string } | undefined;
  onCancel: () => void;
  onSaved: (done: string) => void;
}) {
  const { replacing } = props;
  const { busy, failure, save } = useSaving();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const value = String(form.get("value") ?? "");
    const name = replacing?.name ?? String(form.get("name") ?? "").trim();
    // The value leaves the field at once: it is never on screen longer than the request.
    const field = formElement.elements.namedItem("value");
    if (field instanceof HTMLInputElement) field.value = "";
    const data = await save(
      () =>
        replacing
          ? api.PUT("/api/v1/secrets/{id}", { params: { path: { id: replacing.id } }, body: { value } })
          : api.POST("/api/v1/secrets", { body: { name, value } }),
      "The secret was not saved",
    );
    if (!data) return;
    formElement.reset();
    props.onSaved(replacing ? `Replaced the value of ${data.name}.` : `Created the secret ${data.name}.`);
  }

  const title = replacing ? `Replace the value of ${replacing.name}` : "Create a secret";
  return (
    <form className="card" onSubmit={submit} aria-labelledby="secret-form-title">
      <h2 id="secret-form-title">{title}</h2>
      {replacing ? null : (
        <label>
          Secret name
          <input name="name" required autoComplete="off" placeholder="petstore-backend-key" />
        </label>
      )}
      <label>
        Value
        <input
          name="value"
          type="password"
          required
          autoComplete="new-password"
          aria-describedby="secret-value-help"
          // biome-ignore lint/a11y/noAutofocus: the replace button leads here; focus follows
          autoFocus={replacing !== undefined}
        />
      </label>
      <p id="secret-value-help" className="help">
        Write-only: after saving, the value cannot be shown again, only replaced.
      </p>
      <FormButtons
        busy={busy}
        failure={failure}
        label={replacing ? "Replace value" : "Create secret"}
        busyLabel="Saving…"
        onCancel={replacing ? props.onCancel : undefined}
      />
    </form>
  );
}
