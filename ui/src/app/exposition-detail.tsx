/**
 * One Exposition: its endpoints on the live gateways, ready-to-paste client configurations (VS
 * Code, Claude Desktop, Cursor, curl), the gateways that do not serve it and why, and the
 * playground that calls its tools, reads its resources and gets its prompts. Change (its name,
 * plan or group, in place) and Delete (behind a confirmation) act on it.
 */
import { useState } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api, attempt, readSession } from "./api.ts";
import { clientConfigs, endpointUrl } from "./client-config.ts";
import { RemoveButton } from "./confirm.tsx";
import { CopyButton } from "./copy-button.tsx";
import { ExpositionForm, type ExpositionView } from "./exposition-form.tsx";
import { EXPOSITIONS } from "./expositions.tsx";
import { Link } from "./link.tsx";
import { failedOf, Loaded, useLoading } from "./loaded.tsx";
import { type Outcome, OutcomeView } from "./outcome.tsx";
import { Playground } from "./playground.tsx";
import { navigate, ROUTES } from "./router.ts";

/** The Exposition and its plan (undefined when the plan cannot be read: the page still shows the endpoints). */
interface ExpositionAndPlan {
  exposition: ExpositionView;
  plan: PlanView | undefined;
}

type PlanView = paths["/api/v1/configuration-plans/{id}"]["get"]["responses"][200]["content"]["application/json"];

export function ExpositionPage({ id }: { id: string }) {
  // Kept here: a change reloads the Exposition, which remounts its detail.
  const [outcome, setOutcome] = useState<Outcome>({});
  const { loading, reload } = useLoading<ExpositionAndPlan>(async () => {
    const answer = await attempt(() => api.GET("/api/v1/expositions/{id}", { params: { path: { id } } }));
    const exposition = answer.data;
    if (!exposition) return failedOf(answer);
    // The plan says how clients authenticate; without it the page still shows the endpoints.
    const plan = await attempt(() =>
      api.GET("/api/v1/configuration-plans/{id}", { params: { path: { id: exposition.configurationPlanId } } }),
    );
    return { state: "loaded", value: { exposition, plan: plan.data } };
  }, id);

  return (
    <section aria-labelledby="exposition-title">
      <p className="breadcrumb">
        <Link href={EXPOSITIONS}>All expositions</Link>
      </p>
      {loading.state === "loaded" ? null : <h1 id="exposition-title">Exposition</h1>}
      <Loaded loading={loading} what="the exposition">
        {({ exposition, plan }) => (
          <ExpositionDetail
            exposition={exposition}
            plan={plan}
            outcome={outcome}
            onOutcome={setOutcome}
            onChanged={reload}
          />
        )}
      </Loaded>
    </section>
  );
}

function ExpositionDetail(props: {
  exposition: ExpositionView;
  plan: PlanView | undefined;
  outcome: Outcome;
  onOutcome: (outcome: Outcome) => void;
  onChanged: () => Promise<void>;
}) {
  const { exposition, plan } = props;
  const [changing, setChanging] = useState(false);
  const organization = readSession()?.organization ?? "";
  const urls = exposition.endpoints.map((fqdn) => endpointUrl(fqdn, organization, exposition.name));
  const apiKey = plan?.hasApiKey ?? true;
  const auth = !plan
    ? "unknown (the plan could not be read)"
    : plan.oauth
      ? "OAuth bearer token"
      : apiKey
        ? "API key"
        : "none";
  const [shown, setShown] = useState(0);
  const configs = clientConfigs(
    exposition.name,
    urls[0] ?? endpointUrl("<gateway>", organization, exposition.name),
    apiKey,
  );
  const config = configs[shown] ?? configs[0];
  return (
    <>
      <h1 id="exposition-title">{exposition.name}</h1>
      <OutcomeView outcome={props.outcome} />
      <dl className="facts">
        <div>
          <dt>Plan</dt>
          <dd>
            {plan ? (
              <Link href={`${ROUTES.plans}/${encodeURIComponent(plan.id)}`}>{plan.name}</Link>
            ) : (
              exposition.configurationPlanId
            )}
          </dd>
        </div>
        <div>
          <dt>Gateway group</dt>
          <dd>{exposition.gatewayGroup.name}</dd>
        </div>
        <div>
          <dt>Clients authenticate with</dt>
          <dd>{auth}</dd>
        </div>
      </dl>
      {changing ? (
        <ExpositionForm
          editing={exposition}
          onCancel={() => setChanging(false)}
          onSaved={(saved) => {
            props.onOutcome({ done: `Saved the exposition ${saved.name}.` });
            void props.onChanged();
          }}
        />
      ) : (
        <div className="buttons">
          <button
            type="button"
            className="secondary"
            aria-label={`Change exposition ${exposition.name}`}
            onClick={() => {
              props.onOutcome({});
              setChanging(true);
            }}
          >
            Change
          </button>
          <RemoveButton
            subject={`exposition ${exposition.name}`}
            name={exposition.name}
            consequence="Its endpoint stops answering on every gateway, and the credentials users gave it are deleted."
            done={`Deleted the exposition ${exposition.name}.`}
            remove={() => api.DELETE("/api/v1/expositions/{id}", { params: { path: { id: exposition.id } } })}
            onOutcome={props.onOutcome}
            onRemoved={() => navigate(EXPOSITIONS)}
          />
        </div>
      )}
      <h2 className="spaced">Endpoints</h2>
      {urls.length === 0 ? (
        <p className="placeholder" role="status">
          No live gateway of the group {exposition.gatewayGroup.name} serves it yet: start a gateway whose labels the
          group selects.
        </p>
      ) : (
        <ul className="endpoints">
          {urls.map((url) => (
            <li key={url}>
              <code>{url}</code> <CopyButton text={url} label={`Copy ${url}`} />
            </li>
          ))}
        </ul>
      )}
      {exposition.problems.length > 0 ? (
        <div className="error" role="alert">
          <p>Gateways that received it but do not serve it:</p>
          <ul>
            {exposition.problems.map((problem) => (
              <li key={problem.gatewayId}>
                {problem.gatewayId}: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h2 className="spaced">Client configuration</h2>
      <fieldset className="client-tabs">
        <legend className="visually-hidden">Client</legend>
        {configs.map((entry, index) => (
          <button
            key={entry.client}
            type="button"
            className={index === shown ? undefined : "secondary"}
            aria-pressed={index === shown}
            onClick={() => setShown(index)}
          >
            {entry.client}
          </button>
        ))}
      </fieldset>
      {config ? (
        <div className="snippet">
          <p className="help">Paste into {config.where}.</p>
          <pre>
            <code>{config.text}</code>
          </pre>
          <CopyButton text={config.text} label={`Copy the ${config.client} configuration`} />
        </div>
      ) : null}
      <h2 className="spaced">Playground</h2>
      <Playground defaultUrl={urls[0] ?? ""} oauth={Boolean(plan?.oauth)} />
    </>
  );
}
