/** One Service: what its document says and the operations it was normalized into (GET /api/v1/services/{id}). */
import type { paths } from "../api/generated/schema.d.ts";
import { api, attempt } from "./api.ts";
import { contractLabel } from "./contract-label.ts";
import { Link } from "./link.tsx";
import { failedOf, Loaded, useLoading } from "./loaded.tsx";
import { ROUTES } from "./router.ts";
import { Table } from "./table.tsx";
import { When } from "./when.tsx";

type ServiceDetail = paths["/api/v1/services/{id}"]["get"]["responses"][200]["content"]["application/json"];

export function ServiceDetailPage({ id }: { id: string }) {
  const { loading } = useLoading<ServiceDetail>(async () => {
    const answer = await attempt(() => api.GET("/api/v1/services/{id}", { params: { path: { id } } }));
    return answer.data ? { state: "loaded", value: answer.data } : failedOf(answer);
  }, id);

  return (
    <section aria-labelledby="service-title">
      <p className="breadcrumb">
        <Link href={ROUTES.services}>All services</Link>
      </p>
      {loading.state === "loaded" ? null : <h1 id="service-title">Service</h1>}
      <Loaded loading={loading} what="the service">
        {(service) => <ServiceView service={service} />}
      </Loaded>
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
          <dt>Contract</dt>
          <dd>{contractLabel(service)}</dd>
        </div>
        <div>
          <dt>Servers</dt>
          <dd>{service.servers.length > 0 ? service.servers.join(", ") : "none declared"}</dd>
        </div>
        <div>
          <dt>Imported</dt>
          <dd>
            <When at={service.createdAt} />
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
