/** A secret value the control plane shows once (a new API token or key): the value, a copy button, and a warning that it will not be shown again. */
import { CopyButton } from "./copy-button.tsx";

export function OneTimeSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <section className="one-time" aria-label={label}>
      <p className="warning">
        <strong>Copy it now:</strong> this is the only time the value is shown. Atrium keeps only a hash of it.
      </p>
      <p className="secret-line">
        <code>{value}</code>
        <CopyButton text={value} label={`Copy ${label.toLowerCase()}`} />
      </p>
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
