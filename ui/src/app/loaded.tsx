/** One thing loaded from the REST API, and its loading and error states in words. */
import type { ReactNode } from "react";

export type Loading<T> = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; value: T };

/** `what` names the thing ("the exposition"); `children` shows it once loaded. */
export function Loaded<T>(props: { loading: Loading<T>; what: string; children: (value: T) => ReactNode }) {
  if (props.loading.state === "loading") {
    return (
      <p className="placeholder" role="status">
        Loading {props.what}…
      </p>
    );
  }
  if (props.loading.state === "failed") {
    return (
      <p className="error" role="alert">
        Could not load {props.what}: {props.loading.message}
      </p>
    );
  }
  return <>{props.children(props.loading.value)}</>;
}
