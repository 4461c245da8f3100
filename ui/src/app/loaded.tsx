/**
 * Something loaded from the REST API, and its states in words: loading (a status), failed (an
 * alert, with Try again where the page offers it) and, for a list, empty (a status).
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { attempt, describeFailure, type Problem } from "./api.ts";

export type Loading<T> = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; value: T };
export type Listing<T> = Loading<T[]>;

/** A failed answer of the generated client (or no answer), in words. */
export function failedOf(answer: { error?: Problem; response: Response | undefined }): Loading<never> {
  return { state: "failed", message: describeFailure(answer.error, answer.response) };
}

/**
 * Loads with `load` on mount and when `key` changes; `reload` loads again (after a change, or Try
 * again). An answer that arrives after a newer load started, or after unmounting, is dropped.
 */
export function useLoading<T>(
  load: () => Promise<Loading<T>>,
  key?: string,
): { loading: Loading<T>; reload: () => Promise<void> } {
  const [loading, setLoading] = useState<Loading<T>>({ state: "loading" });
  const latest = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is the page's fixed request; `key` is what it depends on
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setLoading({ state: "loading" });
    const next = await load();
    if (mine === latest.current) setLoading(next);
  }, [key]);
  useEffect(() => {
    void reload();
    return () => {
      latest.current++;
    };
  }, [reload]);
  return { loading, reload };
}

/** Loads `items` with `call` on mount; `reload` loads them again. */
export function useListing<T>(call: () => Promise<{ data?: { items: T[] }; error?: Problem; response: Response }>): {
  listing: Listing<T>;
  reload: () => Promise<void>;
} {
  const { loading, reload } = useLoading<T[]>(async () => {
    const answer = await attempt(call);
    return answer.data ? { state: "loaded", value: answer.data.items } : failedOf(answer);
  });
  return { listing: loading, reload };
}

/** `what` names the thing ("the exposition"); `children` shows it once loaded; `onRetry` adds Try again to the error. */
export function Loaded<T>(props: {
  loading: Loading<T>;
  what: string;
  onRetry?: () => void;
  children: (value: T) => ReactNode;
}) {
  const { loading } = props;
  if (loading.state === "loading") {
    return (
      <p className="placeholder" role="status">
        Loading {props.what}…
      </p>
    );
  }
  if (loading.state === "failed")
    return <LoadFailure what={props.what} message={loading.message} onRetry={props.onRetry} />;
  return <>{props.children(loading.value)}</>;
}

/** Why `what` could not be loaded (an alert), with Try again when `onRetry` is given. */
export function LoadFailure(props: { what: string; message: string; onRetry?: () => void }) {
  const words = `Could not load ${props.what}: ${props.message}`;
  if (!props.onRetry) {
    return (
      <p className="error" role="alert">
        {words}
      </p>
    );
  }
  return (
    <div className="error" role="alert">
      <p>{words}</p>
      <button type="button" className="secondary" onClick={props.onRetry}>
        Try again
      </button>
    </div>
  );
}

/** A loaded list: `what` names the items ("API tokens"), `empty` says how to add the first. */
export function ListingView<T>(props: {
  listing: Listing<T>;
  what: string;
  empty: string;
  onRetry: () => void;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <Loaded loading={props.listing} what={`the ${props.what}`} onRetry={props.onRetry}>
      {(items) =>
        items.length === 0 ? (
          <p className="placeholder" role="status">
            {props.empty}
          </p>
        ) : (
          props.children(items)
        )
      }
    </Loaded>
  );
}
