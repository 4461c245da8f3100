/**
 * A configuration plan's pages: a new plan (/plans/new) and a saved one (/plans/<id>), which edits
 * it, renews its API key and deletes it. A new API key, from a creation, a save that turned the
 * key on, or a renewal, is shown once.
 */
import { type ReactNode, useState } from "react";
import { api, attempt, describeFailure } from "./api.ts";
import { ConfirmButton } from "./confirm.tsx";
import { Link } from "./link.tsx";
import { failedOf, Loaded, type Loading, useLoading } from "./loaded.tsx";
import { OneTimeSecret } from "./one-time-secret.tsx";
import { OutcomeView } from "./outcome.tsx";
import { emptyPlanForm, type PlanView, planFormOf, type SavedPlan } from "./plan-fields.ts";
import { type Choice, PlanEditor, type SaveOutcome } from "./plan-form.tsx";
import { navigate, ROUTES } from "./router.ts";

interface Choices {
  services: (Choice & { version: string })[];
  secrets: Choice[];
}
type PlanData = Choices & { plan: PlanView | undefined };

/** The services and secrets the form offers, and the plan when `id` names one. */
function usePlanData(id: string | undefined): Loading<PlanData> {
  return useLoading<PlanData>(async () => {
    const [services, secrets, plan] = await Promise.all([
      attempt(() => api.GET("/api/v1/services")),
      attempt(() => api.GET("/api/v1/secrets")),
      id ? attempt(() => api.GET("/api/v1/configuration-plans/{id}", { params: { path: { id } } })) : undefined,
    ]);
    const failed = [services, secrets, plan].find((answer) => answer && !answer.data);
    if (failed) return failedOf(failed);
    return {
      state: "loaded",
      value: { services: services.data?.items ?? [], secrets: secrets.data?.items ?? [], plan: plan?.data },
    };
  }, id).loading;
}

function outcomeOf(answer: { data?: unknown; error?: unknown; response: Response | undefined }): SaveOutcome {
  return answer.data
    ? { ok: true }
    : { ok: false, error: answer.error as Parameters<typeof describeFailure>[0], response: answer.response };
}

export function NewPlanPage() {
  const loading = usePlanData(undefined);
  const [created, setCreated] = useState<SavedPlan>();
  return (
    <PlanSection title="New configuration plan">
      <p className="lead">A Service bound to its backend, with the settings of its MCP endpoint.</p>
      {created ? (
        <Created plan={created} />
      ) : (
        <Loaded loading={loading} what="the services">
          {({ services, secrets }) =>
            services.length === 0 ? (
              <p className="placeholder" role="status">
                A plan needs a Service: <Link href={ROUTES.services}>import an OpenAPI document</Link> first.
              </p>
            ) : (
              <PlanEditor
                initial={emptyPlanForm(services[0]?.id)}
                services={services}
                secrets={secrets}
                submitLabel="Create plan"
                onSave={async (body) => {
                  const answer = await attempt(() => api.POST("/api/v1/configuration-plans", { body }));
                  if (answer.data) setCreated(answer.data);
                  return outcomeOf(answer);
                }}
              />
            )
          }
        </Loaded>
      )}
    </PlanSection>
  );
}

function Created({ plan }: { plan: SavedPlan }) {
  const open = `${ROUTES.plans}/${encodeURIComponent(plan.id)}`;
  return (
    <div className="card">
      <p className="success" role="status">
        Created the configuration plan {plan.name}.
      </p>
      {plan.apiKey ? <OneTimeSecret label="API key" value={plan.apiKey} onDone={() => navigate(open)} /> : null}
      <p>
        <Link href={open}>Open {plan.name}</Link> · <Link href={ROUTES.plans}>All configuration plans</Link>
      </p>
    </div>
  );
}

export function PlanPage({ id }: { id: string }) {
  const loading = usePlanData(id);
  const [saved, setSaved] = useState<SavedPlan>();
  const [deleted, setDeleted] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [newKey, setNewKey] = useState<string>();
  const [note, setNote] = useState<string>();
  const plan = saved ?? (loading.state === "loaded" ? loading.value.plan : undefined);

  if (deleted) {
    return (
      <section aria-labelledby="plan-title">
        <h1 id="plan-title">Configuration plan deleted</h1>
        <p className="success" role="status">
          Deleted the configuration plan {deleted}.
        </p>
        <p>
          <Link href={ROUTES.plans}>All configuration plans</Link>
        </p>
      </section>
    );
  }
  return (
    <PlanSection title={plan ? plan.name : "Configuration plan"}>
      <Loaded loading={loading} what="the configuration plan">
        {({ services, secrets, plan: loaded }) =>
          loaded ? (
            <>
              <OutcomeView outcome={{ done: note }} />
              {newKey ? <OneTimeSecret label="New API key" value={newKey} onDone={() => setNewKey(undefined)} /> : null}
              <OutcomeView outcome={{ failure }} />
              <PlanEditor
                initial={planFormOf(loaded)}
                services={services}
                secrets={secrets}
                submitLabel="Save changes"
                onSave={async (body) => {
                  setFailure(undefined);
                  setNote(undefined);
                  const answer = await attempt(() =>
                    api.PUT("/api/v1/configuration-plans/{id}", { params: { path: { id } }, body }),
                  );
                  if (answer.data) {
                    setSaved(answer.data);
                    setNote(`Saved ${answer.data.name}.${answer.data.apiKey ? " Its new API key:" : ""}`);
                    setNewKey(answer.data.apiKey);
                    scrollTo(0, 0);
                  }
                  return outcomeOf(answer);
                }}
              />
              {plan?.hasApiKey ? (
                <div className="card">
                  <h2>API key</h2>
                  <p>
                    Clients send it in the <code>x-atrium-key</code> header. Renewing makes a new key; the old one stops
                    working as soon as the gateways receive the change.
                  </p>
                  <ConfirmButton
                    action="Renew"
                    subject={`the API key of ${plan.name}`}
                    consequence="Clients using the current key are refused from then on."
                    onConfirm={async () => {
                      setFailure(undefined);
                      setNote(undefined);
                      const answer = await attempt(() =>
                        api.POST("/api/v1/configuration-plans/{id}/renew-api-key", { params: { path: { id } } }),
                      );
                      if (answer.data) {
                        setNote(
                          `Renewed the API key of ${answer.data.name}: the old key stops working as soon as the gateways receive the change.`,
                        );
                        setNewKey(answer.data.apiKey);
                        scrollTo(0, 0);
                      } else
                        setFailure(`The API key was not renewed: ${describeFailure(answer.error, answer.response)}`);
                    }}
                  />
                </div>
              ) : null}
              <div className="card">
                <h2>Delete</h2>
                <p>A plan that an Exposition still uses cannot be deleted: delete the Exposition first.</p>
                <ConfirmButton
                  action="Delete"
                  subject={`plan ${loaded.name}`}
                  consequence="This cannot be undone."
                  onConfirm={async () => {
                    setFailure(undefined);
                    const answer = await attempt(() =>
                      api.DELETE("/api/v1/configuration-plans/{id}", { params: { path: { id } } }),
                    );
                    if (answer.response?.ok) setDeleted(loaded.name);
                    else setFailure(`The plan was not deleted: ${describeFailure(answer.error, answer.response)}`);
                  }}
                />
              </div>
            </>
          ) : null
        }
      </Loaded>
    </PlanSection>
  );
}

/** A plan page: the way back to the list, and its title. */
function PlanSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="plan-title">
      <p className="breadcrumb">
        <Link href={ROUTES.plans}>All configuration plans</Link>
      </p>
      <h1 id="plan-title">{title}</h1>
      {children}
    </section>
  );
}
