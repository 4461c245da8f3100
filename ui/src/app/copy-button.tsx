/** A Copy button for a text shown on the page (a URL, a configuration), and what became of the copy, in words. */
import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState<string>();
  return (
    <>
      <button
        type="button"
        className="secondary"
        aria-label={label}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setSaid("Copied to the clipboard.");
          } catch {
            setSaid("The browser did not allow copying: select the text and copy it by hand.");
          }
        }}
      >
        Copy
      </button>
      <span role="status" className="muted">
        {said}
      </span>
    </>
  );
}
