/**
 * An Exposition's name, configuration plan and gateway group: publishes a plan (POST) or, given
 * the Exposition, changes it in place (PUT: same id, the gateways move it). The control plane
 * says what is wrong, in its words.
 */
import type { FormEvent, ReactNode } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api } from "./api.ts";
import { Link } from "./link.tsx";
import { type Listing, useListing } from "./loaded.tsx";
import { FormButtons, useSaving } from "./outcome.tsx";
import { ROUTES } from "./router.ts";

export type ExpositionView = paths["/api/v1/expositions/{id}"]["get"]["responses"][200]["content"]["application/json"];

export function ExpositionForm(props: {
  /** The Exposition to change; undefined: the form publishes a new one. */
  editing?: ExpositionView;
  onSaved: (exposition: ExpositionView) => void;
  onCancel?: () => void;
}) {
  const { editing } = props;
  const plans = useListing(() => api.GET("/api/v1/configuration-plans"));
  const groups = useListing(() => api.GET("/api/v1/gateway-groups"));
  const { busy, failure, setFailure, save } = useSaving();
  const refusal = editing ? "The exposition was not changed" : "The plan was not published";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      name: String(form.get("name") ?? "").trim(),
      configurationPlanId: String(form.get("plan") ?? ""),
      gatewayGroupId: Number(form.get("group")),
    };
    if (!body.configurationPlanId || !body.gatewayGroupId) {
      setFailure(`${refusal}: Choose a configuration plan and a gateway group.`);
      return;
    }
    const data = await save(
      () =>
        editing
          ? api.PUT("/api/v1/expositions/{id}", { params: { path: { id: editing.id } }, body })
          : api.POST("/api/v1/expositions", { body }),
      refusal,
    );
    if (data) props.onSaved(data);
  }

  const title = editing ? `Change ${editing.name}` : "Publish a plan";
  return (
    // No native validation bubbles: the control plane's words say what is wrong with a name.
    <form className="card stacked" onSubmit={submit} aria-labelledby="exposition-form-title" noValidate>
      <h2 id="exposition-form-title">{title}</h2>
      <label htmlFor="exposition-name">Name</label>
      <input
        id="exposition-name"
        name="name"
        required
        autoComplete="off"
        defaultValue={editing?.name}
        aria-describedby="exposition-name-help"
      />
      <p className="help" id="exposition-name-help">
        Lower-case letters, digits and dashes: the endpoint's path is /mcp/&lt;organization&gt;/&lt;name&gt;.
        {editing ? " A new name moves the endpoint: clients must use the new path." : ""}
      </p>
      <Choice
        id="exposition-plan"
        name="plan"
        label="Configuration plan"
        what="plans"
        listing={plans.listing}
        chosen={editing?.configurationPlanId}
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
        chosen={editing ? String(editing.gatewayGroupId) : undefined}
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
      <FormButtons
        busy={busy}
        failure={failure}
        label={editing ? "Save" : "Publish"}
        busyLabel={editing ? "Saving…" : "Publishing…"}
        onCancel={props.onCancel}
      />
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
  /** The value chosen at first (the Exposition's own). */
  chosen?: string;
  /** The option's value and text. */
  option: (item: T) => [string, string];
  none: ReactNode;
}) {
  const { listing } = props;
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        required
        disabled={listing.state !== "loaded"}
        // Remounted once the options are there, so the chosen one is selected.
        key={listing.state}
        defaultValue={props.chosen ?? ""}
      >
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
