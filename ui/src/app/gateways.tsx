/**
 * Gateway groups (list, create with labels, delete) and the registered gateways: their labels,
 * health, last advertisement and the Expositions each serves. What a gateway serves comes from the
 * Expositions' own view: an Exposition lists the FQDNs of the live gateways that serve it, and the
 * gateways that received it but report a problem with it.
 */
import type { FormEvent } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api } from "./api.ts";
import { RemoveButton } from "./confirm.tsx";
import { useEditing } from "./editing.ts";
import { formatLabels, parseLabels } from "./labels.ts";
import { ListingView, LoadFailure, useListing } from "./loaded.tsx";
import { FormButtons, OutcomeView, useSaving } from "./outcome.tsx";
import { Table } from "./table.tsx";
import { When } from "./when.tsx";

type Group = paths["/api/v1/gateway-groups"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Gateway = paths["/api/v1/gateways"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Exposition = paths["/api/v1/expositions"]["get"]["responses"][200]["content"]["application/json"]["items"][number];

export function GatewaysPage() {
  const groups = useListing(() => api.GET("/api/v1/gateway-groups"));
  const gateways = useListing(() => api.GET("/api/v1/gateways"));
  const expositions = useListing(() => api.GET("/api/v1/expositions"));
  const edits = useEditing<Group>(groups.reload);
  const served = expositions.listing.state === "loaded" ? expositions.listing.value : [];

  return (
    <section aria-labelledby="gateways-title">
      <h1 id="gateways-title">Gateways</h1>
      <p className="lead">
        Gateway groups choose gateways by the labels they advertise; an Exposition is published on a group.
      </p>
      <h2>Gateway groups</h2>
      <OutcomeView outcome={edits.outcome} />
      <ListingView
        listing={groups.listing}
        what="gateway groups"
        empty="No gateway groups yet. Create one below to publish Expositions on."
        onRetry={groups.reload}
      >
        {(items) => (
          <Table
            caption="Gateway groups"
            columns={[
              { label: "Name" },
              { label: "Selects gateways labelled" },
              { label: "Description", wideOnly: true },
              { label: "Expositions", wideOnly: true },
              { label: "Actions" },
            ]}
          >
            {items.map((group) => (
              <tr key={group.id}>
                <th scope="row">{group.name}</th>
                <td>
                  <Selector group={group} />
                </td>
                <td className="wide-only">{group.description ?? ""}</td>
                <td className="wide-only">
                  <Names names={served.filter((e) => e.gatewayGroupId === group.id).map((e) => e.name)} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Edit group ${group.name}`}
                    onClick={() => edits.edit(group)}
                  >
                    Edit
                  </button>
                  <RemoveButton
                    subject={`group ${group.name}`}
                    name={group.name}
                    consequence="Its gateways keep running."
                    done={`Deleted the gateway group ${group.name}.`}
                    remove={() => api.DELETE("/api/v1/gateway-groups/{id}", { params: { path: { id: group.id } } })}
                    onOutcome={edits.removed(group.id)}
                    onRemoved={groups.reload}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      <GroupForm key={edits.formKey} editing={edits.editing} onCancel={edits.cancel} onSaved={edits.saved} />
      <h2 className="spaced">Gateways</h2>
      <ListingView
        listing={gateways.listing}
        what="gateways"
        empty="No gateway has registered. A gateway registers itself with a gateway API token when it starts."
        onRetry={gateways.reload}
      >
        {(items) => (
          <Table
            caption="Gateways"
            columns={[
              { label: "Gateway" },
              { label: "Health" },
              { label: "Labels" },
              { label: "Last advertisement", wideOnly: true },
              { label: "Serves" },
            ]}
          >
            {items.map((gateway) => (
              <tr key={gateway.id}>
                <th scope="row">
                  {gateway.id}
                  <span className="sub">{gateway.fqdns.join(", ")}</span>
                  {gateway.version ? <span className="sub">version {gateway.version}</span> : null}
                </th>
                <td>
                  <span className={gateway.health === "UP" ? "badge up" : "badge stale"}>
                    {gateway.health === "UP" ? "Up" : "Stale"}
                  </span>
                </td>
                <td>
                  <Names names={formatLabels(gateway.labels)} none="none" code />
                </td>
                <td className="wide-only">
                  <When at={gateway.lastSeenAt} />
                </td>
                <td>
                  <Serves gateway={gateway} expositions={expositions.listing.state === "loaded" ? served : undefined} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      {expositions.listing.state === "failed" ? (
        <LoadFailure
          what="the Expositions the gateways serve"
          message={expositions.listing.message}
          onRetry={expositions.reload}
        />
      ) : null}
    </section>
  );
}

function Selector({ group }: { group: Group }) {
  const labels = formatLabels(group.labels);
  const expressions = (group.matchExpressions ?? []).map(
    ({ key, operator, values }) => `${key} ${operator}${values?.length ? ` (${values.join(", ")})` : ""}`,
  );
  return <Names names={[...labels, ...expressions]} none="every gateway" code />;
}

/** The Expositions a gateway serves: it is live, one of its FQDNs is an endpoint, and it reports no problem with it. */
function Serves({ gateway, expositions }: { gateway: Gateway; expositions: Exposition[] | undefined }) {
  if (!expositions) return <span className="muted">unknown</span>;
  const mine = expositions.filter((e) => gateway.fqdns.some((fqdn) => e.endpoints.includes(fqdn)));
  const failing = mine.flatMap((e) => e.problems.filter((p) => p.gatewayId === gateway.id).map((p) => ({ e, p })));
  const serving = mine.filter((e) => !failing.some((f) => f.e.id === e.id));
  return (
    <>
      <Names names={serving.map((e) => e.name)} none={gateway.health === "UP" ? "nothing" : "nothing (stale)"} />
      {failing.map(({ e, p }) => (
        <span key={e.id} className="sub problem">
          Not serving {e.name}: {p.message}
        </span>
      ))}
    </>
  );
}

function Names({ names, none = "none", code }: { names: string[]; none?: string; code?: boolean }) {
  if (names.length === 0) return <span className="muted">{none}</span>;
  return (
    <ul className="names">
      {names.map((name) => (
        <li key={name}>{code ? <code>{name}</code> : name}</li>
      ))}
    </ul>
  );
}

/** Creates a group, or edits `editing` (its name, description and labels; its expressions are kept). */
function GroupForm(props: { editing: Group | undefined; onCancel: () => void; onSaved: (done: string) => void }) {
  const { editing } = props;
  const { busy, failure, setFailure, save } = useSaving();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const parsed = parseLabels(String(form.get("labels") ?? ""));
    if ("error" in parsed) {
      setFailure(`Labels: ${parsed.error}. Write one key=value a line.`);
      return;
    }
    const description = String(form.get("description") ?? "").trim();
    const body = {
      name: String(form.get("name") ?? "").trim(),
      labels: parsed.labels,
      ...(description ? { description } : {}),
      ...(editing?.matchExpressions ? { matchExpressions: editing.matchExpressions } : {}),
    };
    const data = await save(
      () =>
        editing
          ? api.PUT("/api/v1/gateway-groups/{id}", { params: { path: { id: editing.id } }, body })
          : api.POST("/api/v1/gateway-groups", { body }),
      "The group was not saved",
    );
    if (!data) return;
    formElement.reset();
    props.onSaved(editing ? `Saved the gateway group ${data.name}.` : `Created the gateway group ${data.name}.`);
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="group-form-title">
      <h2 id="group-form-title">{editing ? `Edit the group ${editing.name}` : "Create a gateway group"}</h2>
      <div className="row">
        <label>
          Group name
          <input
            name="name"
            required
            autoComplete="off"
            placeholder="production"
            defaultValue={editing?.name}
            // biome-ignore lint/a11y/noAutofocus: the Edit button leads here; focus follows
            autoFocus={editing !== undefined}
          />
        </label>
        <label>
          Description
          <input name="description" autoComplete="off" defaultValue={editing?.description} />
        </label>
      </div>
      <label>
        Labels the gateways must carry
        <textarea
          name="labels"
          rows={3}
          spellCheck={false}
          className="code"
          placeholder="env=production"
          defaultValue={formatLabels(editing?.labels).join("\n")}
          aria-describedby="group-labels-help"
        />
      </label>
      <p id="group-labels-help" className="help">
        One <code>key=value</code> a line. None selects every gateway.
      </p>
      <FormButtons
        busy={busy}
        failure={failure}
        label={editing ? "Save group" : "Create group"}
        busyLabel="Saving…"
        onCancel={editing ? props.onCancel : undefined}
      />
    </form>
  );
}
