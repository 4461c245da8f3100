/** Configuration plans: the organization's plans (loading, empty and error states), each linked to its page, and a link to make one. */
import { api } from "./api.ts";
import { Link } from "./link.tsx";
import { ListingView, useListing } from "./loaded.tsx";
import { ROUTES } from "./router.ts";
import { Table } from "./table.tsx";

export function PlansPage() {
  const { listing, reload } = useListing(() => api.GET("/api/v1/configuration-plans"));
  const services = useListing(() => api.GET("/api/v1/services")).listing;
  const serviceName = (id: string) => {
    const service = services.state === "loaded" ? services.value.find((s) => s.id === id) : undefined;
    return service ? `${service.name} ${service.version}` : id;
  };
  return (
    <section aria-labelledby="plans-title">
      <h1 id="plans-title">Configuration plans</h1>
      <p className="lead">
        Each plan binds a Service to its backend with the settings of an MCP endpoint: which operations become tools,
        who may call them, and what the gateway sends to the backend.
      </p>
      <p>
        <Link className="button" href={`${ROUTES.plans}/new`}>
          New configuration plan
        </Link>
      </p>
      <ListingView
        listing={listing}
        what="configuration plans"
        empty="No configuration plans yet. Make the first with New configuration plan."
        onRetry={reload}
      >
        {(items) => (
          <Table
            caption="Configuration plans"
            columns={[
              { label: "Name" },
              { label: "Service" },
              { label: "Backend", wideOnly: true },
              { label: "Access" },
              { label: "Tools", wideOnly: true },
            ]}
          >
            {items.map((plan) => (
              <tr key={plan.id}>
                <th scope="row">
                  <Link href={`${ROUTES.plans}/${encodeURIComponent(plan.id)}`}>{plan.name}</Link>
                </th>
                <td>{serviceName(plan.serviceId)}</td>
                <td className="wide-only">
                  <code>{plan.backendEndpoint}</code>
                </td>
                <td>{plan.oauth ? "OAuth" : plan.hasApiKey ? "API key" : "Open"}</td>
                <td className="wide-only">
                  {plan.toolExposureMode === "Discovery" ? "Discovery" : "One per operation"}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListingView>
    </section>
  );
}
