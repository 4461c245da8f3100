/**
 * Custom tools, resources and prompts: sets of definitions added to a Service's Expositions. One
 * page per kind, the same shape for each: the list, a form to create or edit a set (its name, its
 * Service, and its definitions as JSON, exactly the REST body's members), and deletion behind a
 * confirmation. The API validates; its field errors are shown as it words them.
 */
import type { FormEvent } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api, type Problem } from "./api.ts";
import { RemoveButton } from "./confirm.tsx";
import { useEditing } from "./editing.ts";
import { Link } from "./link.tsx";
import { ListingView, useListing } from "./loaded.tsx";
import { FormButtons, OutcomeView, useSaving } from "./outcome.tsx";
import { Table } from "./table.tsx";
import { When } from "./when.tsx";

type Body<P extends keyof paths> = paths[P] extends {
  post: { requestBody: { content: { "application/json": infer B } } };
}
  ? B
  : never;
type ToolsBody = Body<"/api/v1/custom-tools">;
type ResourcesBody = Body<"/api/v1/resources">;
type PromptsBody = Body<"/api/v1/prompts">;

/** What every kind's set has. */
interface DefinitionSet {
  id: string;
  name: string;
  serviceId: string;
  updatedAt: string;
}
type Answer = { data?: DefinitionSet; error?: Problem; response: Response };

interface Kind {
  path: string;
  /** "Custom tools" */
  title: string;
  /** "tool set" */
  noun: string;
  lead: string;
  /** The set's definitions: the body's members beside name and serviceId. */
  content: (set: DefinitionSet) => Record<string, unknown>;
  summary: (set: DefinitionSet) => string;
  example: Record<string, unknown>;
  list: () => Promise<{ data?: { items: DefinitionSet[] }; error?: Problem; response: Response }>;
  create: (body: Record<string, unknown>) => Promise<Answer>;
  update: (id: string, body: Record<string, unknown>) => Promise<Answer>;
  remove: (id: string) => Promise<{ error?: Problem; response: Response }>;
}

const count = (items: unknown, noun: string) => {
  const n = Array.isArray(items) ? items.length : 0;
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
};
const path = (id: string) => ({ params: { path: { id } } });

export const KINDS = {
  tools: {
    path: "/custom-tools",
    title: "Custom tools",
    noun: "tool set",
    lead: "Tools beside those derived from the Service's operations, each a backend request built from its arguments.",
    content: (set) => ({ tools: (set as { tools?: unknown }).tools }),
    summary: (set) => count((set as { tools?: unknown }).tools, "tool"),
    example: {
      tools: [
        {
          name: "findPetsByTag",
          description: "Finds the pets that carry a tag.",
          inputSchema: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] },
          request: { method: "GET", path: "/pets", query: { tag: "{{tag}}" } },
          annotations: { readOnlyHint: true },
        },
      ],
    },
    list: () => api.GET("/api/v1/custom-tools"),
    create: (body) => api.POST("/api/v1/custom-tools", { body: body as ToolsBody }),
    update: (id, body) => api.PUT("/api/v1/custom-tools/{id}", { ...path(id), body: body as ToolsBody }),
    remove: (id) => api.DELETE("/api/v1/custom-tools/{id}", path(id)),
  },
  resources: {
    path: "/resources",
    title: "Resources",
    noun: "resource set",
    lead: "Resources the Expositions offer: fixed text, or content read from the backend, by URI or URI template.",
    content: (set) => {
      const { resources, resourceTemplates } = set as { resources?: unknown; resourceTemplates?: unknown };
      return { resources, resourceTemplates };
    },
    summary: (set) => {
      const { resources, resourceTemplates } = set as { resources?: unknown; resourceTemplates?: unknown };
      return `${count(resources, "resource")}, ${count(resourceTemplates, "template")}`;
    },
    example: {
      resources: [
        { name: "guide", uri: "docs://petstore/guide", mimeType: "text/markdown", text: "# The pet store\n" },
      ],
      resourceTemplates: [{ name: "pet", uriTemplate: "pets://{id}", fromBackend: { path: "/pets/{{id}}" } }],
    },
    list: () => api.GET("/api/v1/resources"),
    create: (body) => api.POST("/api/v1/resources", { body: body as ResourcesBody }),
    update: (id, body) => api.PUT("/api/v1/resources/{id}", { ...path(id), body: body as ResourcesBody }),
    remove: (id) => api.DELETE("/api/v1/resources/{id}", path(id)),
  },
  prompts: {
    path: "/prompts",
    title: "Prompts",
    noun: "prompt set",
    lead: "Prompt templates the Expositions offer; {{argument}} placeholders are filled in by prompts/get.",
    content: (set) => ({ prompts: (set as { prompts?: unknown }).prompts }),
    summary: (set) => count((set as { prompts?: unknown }).prompts, "prompt"),
    example: {
      prompts: [
        {
          name: "adopt",
          description: "Helps to choose a pet.",
          arguments: [{ name: "species", required: true }],
          messages: [{ role: "user", text: "Find a {{species}} to adopt and tell me about it." }],
        },
      ],
    },
    list: () => api.GET("/api/v1/prompts"),
    create: (body) => api.POST("/api/v1/prompts", { body: body as PromptsBody }),
    update: (id, body) => api.PUT("/api/v1/prompts/{id}", { ...path(id), body: body as PromptsBody }),
    remove: (id) => api.DELETE("/api/v1/prompts/{id}", path(id)),
  },
} satisfies Record<string, Kind>;

export function CustomDefinitionsPage({ kind }: { kind: Kind }) {
  const { listing, reload } = useListing(kind.list);
  const services = useListing(() => api.GET("/api/v1/services"));
  const edits = useEditing<DefinitionSet>(reload);
  const serviceName = (id: string) =>
    services.listing.state === "loaded" ? (services.listing.value.find((s) => s.id === id)?.name ?? id) : id;

  return (
    <section aria-labelledby="custom-title">
      <nav aria-label="Custom definitions" className="tabs">
        <ul>
          {Object.values(KINDS).map((other: Kind) => (
            <li key={other.path}>
              <Link href={other.path} aria-current={other.path === kind.path ? "page" : undefined}>
                {other.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h1 id="custom-title">{kind.title}</h1>
      <p className="lead">{kind.lead}</p>
      <OutcomeView outcome={edits.outcome} />
      <ListingView
        listing={listing}
        what={`${kind.noun}s`}
        empty={`No ${kind.noun}s yet. Create one below.`}
        onRetry={reload}
      >
        {(items) => (
          <Table
            caption={kind.title}
            columns={[
              { label: "Name" },
              { label: "Service", wideOnly: true },
              { label: "Holds" },
              { label: "Updated", wideOnly: true },
              { label: "Actions" },
            ]}
          >
            {items.map((set) => (
              <tr key={set.id}>
                <th scope="row">{set.name}</th>
                <td className="wide-only">{serviceName(set.serviceId)}</td>
                <td>{kind.summary(set)}</td>
                <td className="wide-only">
                  <When at={set.updatedAt} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Edit ${set.name}`}
                    onClick={() => edits.edit(set)}
                  >
                    Edit
                  </button>
                  <RemoveButton
                    subject={set.name}
                    name={set.name}
                    consequence="Expositions of its Service stop offering what it defines."
                    done={`Deleted ${set.name}.`}
                    remove={() => kind.remove(set.id)}
                    onOutcome={edits.removed(set.id)}
                    onRemoved={reload}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
      <DefinitionForm
        key={edits.formKey}
        kind={kind}
        editing={edits.editing}
        services={services.listing.state === "loaded" ? services.listing.value : undefined}
        onCancel={edits.cancel}
        onSaved={edits.saved}
      />
    </section>
  );
}

function DefinitionForm(props: {
  kind: Kind;
  editing: DefinitionSet | undefined;
  services: { id: string; name: string; version: string }[] | undefined;
  onCancel: () => void;
  onSaved: (done: string) => void;
}) {
  const { kind, editing, services } = props;
  const { busy, failure, setFailure, save } = useSaving();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    let content: unknown;
    try {
      content = JSON.parse(String(form.get("definitions") ?? ""));
    } catch (error) {
      setFailure(`The definitions are not JSON: ${(error as Error).message}`);
      return;
    }
    if (typeof content !== "object" || content === null || Array.isArray(content)) {
      setFailure(
        `The definitions must be a JSON object, such as ${JSON.stringify(Object.keys(kind.example))} as keys.`,
      );
      return;
    }
    const body = { ...content, name: String(form.get("name") ?? "").trim(), serviceId: String(form.get("serviceId")) };
    const data = await save(() => (editing ? kind.update(editing.id, body) : kind.create(body)), "Not saved");
    if (!data) return;
    formElement.reset();
    props.onSaved(editing ? `Saved ${data.name}.` : `Created ${data.name}.`);
  }

  const title = editing ? `Edit ${editing.name}` : `Create a ${kind.noun}`;
  return (
    <form className="card" onSubmit={submit} aria-labelledby="definition-form-title">
      <h2 id="definition-form-title">{title}</h2>
      <div className="row">
        <label>
          Set name
          <input
            name="name"
            required
            autoComplete="off"
            defaultValue={editing?.name}
            // biome-ignore lint/a11y/noAutofocus: the Edit button leads here; focus follows
            autoFocus={editing !== undefined}
          />
        </label>
        <label>
          Service
          <select name="serviceId" required defaultValue={editing?.serviceId}>
            {services?.map((service) => (
              <option key={service.id} value={service.id}>
                {service.name} {service.version}
              </option>
            ))}
          </select>
        </label>
      </div>
      {services?.length === 0 ? (
        <p className="notice">
          There is no Service yet: <Link href="/services">import one</Link> first.
        </p>
      ) : null}
      <label>
        Definitions (JSON)
        <textarea
          name="definitions"
          required
          rows={14}
          spellCheck={false}
          className="code"
          defaultValue={JSON.stringify(editing ? kind.content(editing) : kind.example, null, 2)}
        />
      </label>
      <FormButtons
        busy={busy}
        failure={failure}
        label={editing ? "Save" : "Create"}
        busyLabel="Saving…"
        onCancel={editing ? props.onCancel : undefined}
      />
    </form>
  );
}
