/** The app's few routes, on the History API: the control plane answers every such path with index.html. */
import { useEffect, useState } from "react";

export const ROUTES = { signIn: "/sign-in", services: "/services", plans: "/plans" } as const;

/** Dispatched by navigate(): unlike popstate, it also fires when the path stays the same. */
const NAVIGATED = "atrium:navigated";

/** Counts visits, so following a link to the page already shown shows it afresh (reloads its data). */
let visits = 0;

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  dispatchEvent(new Event(NAVIGATED));
}

/** The current path, and which visit of it this is (a key for the page). */
export function useLocation(): { path: string; visit: number } {
  const [current, setCurrent] = useState({ path: location.pathname, visit: visits });
  useEffect(() => {
    const visit = () => setCurrent({ path: location.pathname, visit: ++visits });
    // Back and forward change the path; a fragment link (the skip link) does not, and keeps the page.
    const moved = () =>
      setCurrent((shown) => (shown.path === location.pathname ? shown : { path: location.pathname, visit: ++visits }));
    addEventListener(NAVIGATED, visit);
    addEventListener("popstate", moved);
    return () => {
      removeEventListener(NAVIGATED, visit);
      removeEventListener("popstate", moved);
    };
  }, []);
  return current;
}
