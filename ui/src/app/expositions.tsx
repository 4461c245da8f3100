/**
 * Expositions: the organization's published MCP endpoints (loading, empty and error states), each
 * linked to its page, and the form that publishes a configuration plan on a gateway group
 * (exposition-form.tsx).
 */
import { api } from "./api.ts";
import { ExpositionForm } from "./exposition-form.tsx";
import { Link } from "./link.tsx";
import { ListingView, useListing } from "./loaded.tsx";
import { navigate } from "./router.ts";
import { Table } from "./table.tsx";

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
      <ExpositionForm onSaved={(created) => navigate(`${EXPOSITIONS}/${encodeURIComponent(created.id)}`)} />
    </section>
  );
}
