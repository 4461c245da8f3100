/**
 * What the playground's resources and prompts panels share: a panel with a table of things to
 * choose (or the words saying there are none), and what an exchange came to (latency, the gateway's HTTP status,
 * its failure in words).
 */
import type { ReactNode } from "react";
import type { Exchange } from "./mcp-client.ts";
import { Table } from "./table.tsx";

export interface ChoiceRow {
  /** The thing's identifier, shown as code on its button: a URI, a URI template, a prompt's name. */
  id: string;
  /** The button's hidden first word for screen readers: "Read", "Get". */
  action: string;
  /** A line under the button. */
  note?: string;
  description?: string;
  onChoose: () => void;
}

/** A panel titled `title` (its table's caption too): the rows to choose from, or `empty`; then `children`. */
export function ChoicePanel(props: {
  title: string;
  heading: string;
  empty: string;
  rows: ChoiceRow[];
  children?: ReactNode;
}) {
  const titleId = `${props.title.toLowerCase()}-title`;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{props.title}</h3>
      {props.rows.length === 0 ? (
        <p className="placeholder" role="status">
          {props.empty}
        </p>
      ) : (
        <Table caption={props.title} columns={[{ label: props.heading }, { label: "Description", wideOnly: true }]}>
          {props.rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <button type="button" className="secondary tool-name" onClick={row.onChoose}>
                  <span className="visually-hidden">{row.action} </span>
                  <code>{row.id}</code>
                </button>
                {row.note ? <span className="sub">{row.note}</span> : null}
              </th>
              <td className="wide-only">{row.description ?? ""}</td>
            </tr>
          ))}
        </Table>
      )}
      {props.children}
    </section>
  );
}

/** `what` names the exchange in its failure ("The read"); `children` are facts of its own, shown first. */
export function ExchangeFacts(props: { exchange: Exchange<unknown>; what: string; children?: ReactNode }) {
  const { exchange } = props;
  return (
    <>
      <dl className="facts">
        {props.children}
        <div>
          <dt>Latency</dt>
          <dd>{Math.round(exchange.latencyMs)} ms</dd>
        </div>
        <div>
          <dt>Gateway HTTP status</dt>
          <dd>{exchange.status ?? "no answer"}</dd>
        </div>
      </dl>
      {exchange.failure ? (
        <p className="error" role="alert">
          {props.what} failed: {exchange.failure}
        </p>
      ) : null}
    </>
  );
}
