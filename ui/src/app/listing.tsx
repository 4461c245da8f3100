/** A list loaded from the REST API, and its loading, error (with Try again) and empty states in words. */
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { attempt, describeFailure, type Problem } from "./api.ts";

export type Listing<T> = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; items: T[] };

/** Loads `items` with `call` on mount; `reload` loads them again (after a change, or Try again). */
export function useListing<T>(call: () => Promise<{ data?: { items: T[] }; error?: Problem; response: Response }>): {
  listing: Listing<T>;
  reload: () => Promise<void>;
} {
  const [listing, setListing] = useState<Listing<T>>({ state: "loading" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `call` is the page's one fixed request
  const reload = useCallback(async () => {
    setListing({ state: "loading" });
    const { data, error, response } = await attempt(call);
    setListing(
      data ? { state: "loaded", items: data.items } : { state: "failed", message: describeFailure(error, response) },
    );
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { listing, reload };
}

/** What a listing shows: `what` names the items ("API tokens"), `empty` says how to add the first. */
export function ListingView<T>(props: {
  listing: Listing<T>;
  what: string;
  empty: string;
  onRetry: () => void;
  children: (items: T[]) => ReactNode;
}) {
  const { listing } = props;
  if (listing.state === "loading") {
    return (
      <p className="placeholder" role="status">
        Loading {props.what}…
      </p>
    );
  }
  if (listing.state === "failed") {
    return (
      <div className="error" role="alert">
        <p>
          Could not load the {props.what}: {listing.message}
        </p>
        <button type="button" className="secondary" onClick={props.onRetry}>
          Try again
        </button>
      </div>
    );
  }
  if (listing.items.length === 0) {
    return (
      <p className="placeholder" role="status">
        {props.empty}
      </p>
    );
  }
  return <>{props.children(listing.items)}</>;
}

/** A date as the reader's locale writes it, machine-readable too. */
export function When({ at }: { at: string }) {
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
}
