/** A data table: a caption for screen readers, column headers (some hidden below 640 px), scrolling inside its frame. */
import type { ReactNode } from "react";

export interface Column {
  label: string;
  /** Hidden on narrow screens: the column matters least. */
  wideOnly?: boolean;
}

export function Table({ caption, columns, children }: { caption: string; columns: Column[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.wideOnly ? "wide-only" : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
