/**
 * Gateway groups (list, create with labels, delete) and the registered gateways: their labels,
 * health, last advertisement and the Expositions each serves. What a gateway serves comes from the
 * Expositions' own view: an Exposition lists the FQDNs of the live gateways that serve it, and the
 * gateways that received it but report a problem with it.
 */
import { type FormEvent, useState } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api, attempt, describeFailure } from "./api.ts";
import { ConfirmButton } from "./confirm.tsx";
import { formatLabels, parseLabels } from "./labels.ts";
import { ListingView, useListing, When } from "./listing.tsx";
import { FormButtons, type Outcome, OutcomeView } from "./outcome.tsx";
import { Table } from "./table.tsx";

type Group = paths["/api/v1/gateway-groups"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Gateway = paths["/api/v1/gateways"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Exposition = paths["/api/v1/expositions"]["get"]["responses"][200]["content"]["application/json"]["items"][number];

export function GatewaysPage() {
  const groups = useListing(() => api.GET("/api/v1/gateway-groups"));
  const gateways = useListing(() => api.GET("/api/v1/gateways"));
  const expositions = useListing(() => api.GET("/api/v1/expositions"));
  const [deleteFailure, setDeleteFailure] = useState<string>();
  const served = expositions.listing.state === "loaded" ? expositions.listing.items : [];

  return (
    <section aria-labelledby="gateways-title">
      <h1 id="gateways-title">Gateways</h1>
      <p className="lead">
        Gateway groups choose gateways by the labels they advertise; an Exposition is published on a group.
      </p>
      <h2>Gateway groups</h2>
      {deleteFailure ? (
        <p className="error" role="alert">
          {deleteFailure}
        </p>
      ) : null}
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
                <td>
                  <ConfirmButton
                    action="Delete"
                    subject={`group ${group.name}`}
                    consequence="Its gateways keep running."
                    onConfirm={async () => {
                      setDeleteFailure(undefined);
                      const { error, response } = await attempt(() =>
                        api.DELETE("/api/v1/gateway-groups/{id}", { params: { path: { id: group.id } } }),
                      );
                      if (response?.ok) await groups.reload();
                      else setDeleteFailure(`Could not delete ${group.name}: ${describeFailure(error, response)}`);
                    }}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      <GroupForm onCreated={groups.reload} />
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
        <div className="error" role="alert">
          <p>Could not load the Expositions the gateways serve: {expositions.listing.message}</p>
          <button type="button" className="secondary" onClick={expositions.reload}>
            Try again
          </button>
        </div>
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

function GroupForm({ onCreated }: { onCreated: () => void }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const parsed = parseLabels(String(form.get("labels") ?? ""));
    if ("error" in parsed) {
      setOutcome({ failure: `Labels: ${parsed.error}. Write one key=value a line.` });
      return;
    }
    const description = String(form.get("description") ?? "").trim();
    setBusy(true);
    setOutcome({});
    const { data, error, response } = await attempt(() =>
      api.POST("/api/v1/gateway-groups", {
        body: {
          name: String(form.get("name") ?? "").trim(),
          labels: parsed.labels,
          ...(description ? { description } : {}),
        },
      }),
    );
    setBusy(false);
    if (!data) {
      setOutcome({ failure: `The group was not created: ${describeFailure(error, response)}` });
      return;
    }
    formElement.reset();
    setOutcome({ done: `Created the gateway group ${data.name}.` });
    onCreated();
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="group-form-title">
      <h2 id="group-form-title">Create a gateway group</h2>
      <div className="row">
        <label>
          Group name
          <input name="name" required autoComplete="off" placeholder="production" />
        </label>
        <label>
          Description
          <input name="description" autoComplete="off" />
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
          aria-describedby="group-labels-help"
        />
      </label>
      <p id="group-labels-help" className="help">
        One <code>key=value</code> a line. None selects every gateway.
      </p>
      <OutcomeView outcome={outcome} />
      <FormButtons busy={busy} label="Create group" busyLabel="Creating…" />
    </form>
  );
}
