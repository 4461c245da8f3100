/** Services: the organization's imported APIs (loading, empty and error states, each linked to its detail) and the import form. */
import { useCallback, useEffect, useState } from "react";
import { api, attempt, describeFailure } from "./api.ts";
import { ImportForm, type ServiceView } from "./import-form.tsx";
import { Link } from "./link.tsx";
import { ROUTES } from "./router.ts";
import { Table } from "./table.tsx";

type Listing = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; items: ServiceView[] };

export function ServicesPage() {
  const [listing, setListing] = useState<Listing>({ state: "loading" });

  const load = useCallback(async () => {
    setListing({ state: "loading" });
    const { data, error, response } = await attempt(() => api.GET("/api/v1/services"));
    setListing(
      data ? { state: "loaded", items: data.items } : { state: "failed", message: describeFailure(error, response) },
    );
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="services-title">
      <h1 id="services-title">Services</h1>
      <p className="lead">The APIs of your organization, each imported from an OpenAPI document.</p>
      <ServiceList listing={listing} onRetry={load} />
      <ImportForm onImported={load} />
    </section>
  );
}

function ServiceList({ listing, onRetry }: { listing: Listing; onRetry: () => void }) {
  if (listing.state === "loading") {
    return (
      <p className="placeholder" role="status">
        Loading services…
      </p>
    );
  }
  if (listing.state === "failed") {
    return (
      <div className="error" role="alert">
        <p>Could not load the services: {listing.message}</p>
        <button type="button" className="secondary" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  if (listing.items.length === 0) {
    return (
      <p className="placeholder" role="status">
        No services yet. Import an OpenAPI document below to create the first one.
      </p>
    );
  }
  return (
    <Table
      caption="Services"
      columns={[
        { label: "Name" },
        { label: "Version" },
        { label: "Title" },
        { label: "OpenAPI", wideOnly: true },
        { label: "Operations" },
        { label: "Imported", wideOnly: true },
      ]}
    >
      {listing.items.map((service) => (
        <tr key={service.id}>
          <th scope="row">
            <Link href={`${ROUTES.services}/${encodeURIComponent(service.id)}`}>{service.name}</Link>
          </th>
          <td>{service.version}</td>
          <td>{service.title}</td>
          <td className="wide-only">{service.openapiVersion}</td>
          <td className="number">{service.operationCount}</td>
          <td className="wide-only">
            <time dateTime={service.createdAt}>{new Date(service.createdAt).toLocaleString()}</time>
          </td>
        </tr>
      ))}
    </Table>
  );
}
