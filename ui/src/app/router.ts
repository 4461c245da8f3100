/** The app's few routes, on the History API: the control plane answers every such path with index.html. */
import { useEffect, useState } from "react";

export const ROUTES = { signIn: "/sign-in", services: "/services" } as const;

/** Counts visits, so following a link to the page already shown shows it afresh (reloads its data). */
let visits = 0;

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  dispatchEvent(new PopStateEvent("popstate"));
}

/** The current path, and which visit of it this is (a key for the page). */
export function useLocation(): { path: string; visit: number } {
  const [current, setCurrent] = useState({ path: location.pathname, visit: visits });
  useEffect(() => {
    const update = () => setCurrent({ path: location.pathname, visit: ++visits });
    addEventListener("popstate", update);
    return () => removeEventListener("popstate", update);
  }, []);
  return current;
}
