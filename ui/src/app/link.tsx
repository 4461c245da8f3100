/** An in-app link: a real <a href> (open in a new tab works), followed without reloading the page. */
import type { AnchorHTMLAttributes } from "react";
import { navigate } from "./router.ts";

export function Link({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        // Modified clicks (new tab, new window) stay the browser's.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    />
  );
}
