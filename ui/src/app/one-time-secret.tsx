/** A secret value the control plane shows once (a new API token): the value, a copy button, and a warning that it will not be shown again. */
import { useState } from "react";

export function OneTimeSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  return (
    <section className="one-time" aria-label={label}>
      <p className="warning">
        <strong>Copy it now:</strong> this is the only time the value is shown. Atrium keeps only a hash of it.
      </p>
      <p className="secret-line">
        <code>{value}</code>
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied("Copied to the clipboard.");
            } catch {
              setCopied("The browser did not allow copying: select the value and copy it by hand.");
            }
          }}
        >
          Copy
        </button>
      </p>
      <p role="status">{copied}</p>
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
