/** Services: the organization's imported APIs (loading, empty and error states, each linked to its detail) and the import form. */
import { api } from "./api.ts";
import { contractLabel } from "./contract-label.ts";
import { ImportForm, type ServiceView } from "./import-form.tsx";
import { Link } from "./link.tsx";
import { ListingView, useListing } from "./loaded.tsx";
import { ROUTES } from "./router.ts";
import { Table } from "./table.tsx";
import { When } from "./when.tsx";

export function ServicesPage() {
  const { listing, reload } = useListing(() => api.GET("/api/v1/services"));
  return (
    <section aria-labelledby="services-title">
      <h1 id="services-title">Services</h1>
      <p className="lead">The APIs of your organization, each imported from an OpenAPI document.</p>
      <ListingView
        listing={listing}
        what="services"
        empty="No services yet. Import an OpenAPI document below to create the first one."
        onRetry={reload}
      >
        {(items) => <ServiceList items={items} />}
      </ListingView>
      <ImportForm onImported={reload} />
    </section>
  );
}

function ServiceList({ items }: { items: ServiceView[] }) {
  return (
    <Table
      caption="Services"
      columns={[
        { label: "Name" },
        { label: "Version" },
        { label: "Title" },
        { label: "Contract", wideOnly: true },
        { label: "Operations" },
        { label: "Imported", wideOnly: true },
      ]}
    >
      {items.map((service) => (
        <tr key={service.id}>
          <th scope="row">
            <Link href={`${ROUTES.services}/${encodeURIComponent(service.id)}`}>{service.name}</Link>
          </th>
          <td>{service.version}</td>
          <td>{service.title}</td>
          <td className="wide-only">{contractLabel(service)}</td>
          <td className="number">{service.operationCount}</td>
          <td className="wide-only">
            <When at={service.createdAt} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
