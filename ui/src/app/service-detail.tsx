/** One Service: what its document says and the operations it was normalized into (GET /api/v1/services/{id}). */
import { useEffect, useState } from "react";
import type { paths } from "../api/generated/schema.d.ts";
import { api, attempt, describeFailure } from "./api.ts";
import { Link } from "./link.tsx";
import { ROUTES } from "./router.ts";
import { Table } from "./table.tsx";

type ServiceDetail = paths["/api/v1/services/{id}"]["get"]["responses"][200]["content"]["application/json"];
type Loading =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "loaded"; service: ServiceDetail };

export function ServiceDetailPage({ id }: { id: string }) {
  const [loading, setLoading] = useState<Loading>({ state: "loading" });
  useEffect(() => {
    let current = true;
    void attempt(() => api.GET("/api/v1/services/{id}", { params: { path: { id } } })).then(
      ({ data, error, response }) => {
        if (!current) return;
        setLoading(
          data ? { state: "loaded", service: data } : { state: "failed", message: describeFailure(error, response) },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [id]);

  return (
    <section aria-labelledby="service-title">
      <p className="breadcrumb">
        <Link href={ROUTES.services}>All services</Link>
      </p>
      {loading.state === "loading" ? (
        <>
          <h1 id="service-title">Service</h1>
          <p className="placeholder" role="status">
            Loading the service…
          </p>
        </>
      ) : null}
      {loading.state === "failed" ? (
        <>
          <h1 id="service-title">Service</h1>
          <p className="error" role="alert">
            Could not load the service: {loading.message}
          </p>
        </>
      ) : null}
      {loading.state === "loaded" ? <ServiceView service={loading.service} /> : null}
    </section>
  );
}

function ServiceView({ service }: { service: ServiceDetail }) {
  return (
    <>
      <h1 id="service-title">
        {service.name} <span className="version">{service.version}</span>
      </h1>
      {service.description ? <p className="lead">{service.description}</p> : null}
      <dl className="facts">
        <div>
          <dt>Title</dt>
          <dd>{service.title}</dd>
        </div>
        <div>
          <dt>OpenAPI</dt>
          <dd>{service.openapiVersion}</dd>
        </div>
        <div>
          <dt>Servers</dt>
          <dd>{service.servers.length > 0 ? service.servers.join(", ") : "none declared"}</dd>
        </div>
        <div>
          <dt>Imported</dt>
          <dd>
            <time dateTime={service.createdAt}>{new Date(service.createdAt).toLocaleString()}</time>
          </dd>
        </div>
      </dl>
      <h2>Operations ({service.operations.length})</h2>
      <Table
        caption={`Operations of ${service.name}`}
        columns={[{ label: "Operation" }, { label: "Method" }, { label: "Path" }, { label: "Summary", wideOnly: true }]}
      >
        {service.operations.map((operation) => (
          <tr key={operation.operationId}>
            <th scope="row">
              <code>{operation.operationId}</code>
            </th>
            <td>
              <span className="method">{operation.method.toUpperCase()}</span>
            </td>
            <td>
              <code>{operation.path}</code>
            </td>
            <td className="wide-only">{operation.summary ?? ""}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
