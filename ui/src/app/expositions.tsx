/**
 * Expositions: the organization's published MCP endpoints (loading, empty and error states), each
 * linked to its page, and the form that publishes a configuration plan on a gateway group.
 */
import type { FormEvent, ReactNode } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api } from "./api.ts";
import { Link } from "./link.tsx";
import { type Listing, ListingView, useListing } from "./loaded.tsx";
import { FormButtons, useSaving } from "./outcome.tsx";
import { navigate, ROUTES } from "./router.ts";
import { Table } from "./table.tsx";

export type ExpositionView = paths["/api/v1/expositions/{id}"]["get"]["responses"][200]["content"]["application/json"];

export const EXPOSITIONS = "/expositions";

export function ExpositionsPage() {
  const { listing, reload } = useListing(() => api.GET("/api/v1/expositions"));
  return (
    <section aria-labelledby="expositions-title">
      <h1 id="expositions-title">Expositions</h1>
      <p className="lead">
        Each Exposition publishes a configuration plan as an MCP endpoint on the gateways of a group.
      </p>
      <ListingView
        listing={listing}
        what="expositions"
        empty="No expositions yet. Publish a configuration plan below to create the first one."
        onRetry={reload}
      >
        {(items) => (
          <Table
            caption="Expositions"
            columns={[
              { label: "Name" },
              { label: "Gateway group" },
              { label: "Endpoints" },
              { label: "Problems", wideOnly: true },
            ]}
          >
            {items.map((exposition) => (
              <tr key={exposition.id}>
                <th scope="row">
                  <Link href={`${EXPOSITIONS}/${encodeURIComponent(exposition.id)}`}>{exposition.name}</Link>
                </th>
                <td>{exposition.gatewayGroup.name}</td>
                <td>{exposition.endpoints.length > 0 ? exposition.endpoints.join(", ") : "none live yet"}</td>
                <td className="wide-only">{exposition.problems.length === 0 ? "none" : exposition.problems.length}</td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      <PublishForm />
    </section>
  );
}

/** Name, plan and gateway group: POST /api/v1/expositions, then the new Exposition's page. */
function PublishForm() {
  const plans = useListing(() => api.GET("/api/v1/configuration-plans"));
  const groups = useListing(() => api.GET("/api/v1/gateway-groups"));
  const { busy, failure, setFailure, save } = useSaving();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      name: String(form.get("name") ?? "").trim(),
      configurationPlanId: String(form.get("plan") ?? ""),
      gatewayGroupId: Number(form.get("group")),
    };
    if (!body.configurationPlanId || !body.gatewayGroupId) {
      setFailure("The plan was not published: Choose a configuration plan and a gateway group.");
      return;
    }
    const data = await save(() => api.POST("/api/v1/expositions", { body }), "The plan was not published");
    if (data) navigate(`${EXPOSITIONS}/${encodeURIComponent(data.id)}`);
  }

  return (
    // The control plane says what is wrong with a name, in its words: no native validation bubbles.
    <form className="card stacked" onSubmit={submit} aria-labelledby="publish-title" noValidate>
      <h2 id="publish-title">Publish a plan</h2>
      <label htmlFor="exposition-name">Name</label>
      <input id="exposition-name" name="name" required autoComplete="off" aria-describedby="exposition-name-help" />
      <p className="help" id="exposition-name-help">
        Lower-case letters, digits and dashes: the endpoint's path is /mcp/&lt;organization&gt;/&lt;name&gt;.
      </p>
      <Choice
        id="exposition-plan"
        name="plan"
        label="Configuration plan"
        what="plans"
        listing={plans.listing}
        option={(plan) => [plan.id, plan.name]}
        none={
          <>
            No plans yet: <Link href={`${ROUTES.plans}/new`}>make one first</Link>.
          </>
        }
      />
      <Choice
        id="exposition-group"
        name="group"
        label="Gateway group"
        what="groups"
        listing={groups.listing}
        option={(group) => [String(group.id), group.name]}
        none={
          <>
            No gateway groups yet: <Link href="/gateways">make one first</Link>.
          </>
        }
      />
      {plans.listing.state === "failed" || groups.listing.state === "failed" ? (
        <p className="error" role="alert">
          Could not load the plans or gateway groups to choose from:{" "}
          {plans.listing.state === "failed" ? plans.listing.message : ""}
          {groups.listing.state === "failed" ? groups.listing.message : ""}
        </p>
      ) : null}
      <FormButtons busy={busy} failure={failure} label="Publish" busyLabel="Publishing…" />
    </form>
  );
}

/** A required choice among loaded items: a placeholder while they load, and what to do when there are none. */
function Choice<T>(props: {
  id: string;
  name: string;
  label: string;
  what: string;
  listing: Listing<T>;
  /** The option's value and text. */
  option: (item: T) => [string, string];
  none: ReactNode;
}) {
  const { listing } = props;
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} name={props.name} required disabled={listing.state !== "loaded"}>
        <option value="">
          {listing.state === "loading" ? `Loading ${props.what}…` : `Choose from the ${props.what}`}
        </option>
        {listing.state === "loaded"
          ? listing.value.map((item) => {
              const [value, text] = props.option(item);
              return (
                <option key={value} value={value}>
                  {text}
                </option>
              );
            })
          : null}
      </select>
      {listing.state === "loaded" && listing.value.length === 0 ? <p className="help">{props.none}</p> : null}
    </>
  );
}
