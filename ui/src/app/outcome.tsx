/** What an action came to, in words: a failure (an alert) or what was done (a status). */
export interface Outcome {
  failure?: string;
  done?: string;
}

export function OutcomeView({ outcome }: { outcome: Outcome }) {
  if (outcome.failure) {
    return (
      <p className="error" role="alert">
        {outcome.failure}
      </p>
    );
  }
  if (outcome.done) {
    return (
      <p className="success" role="status">
        {outcome.done}
      </p>
    );
  }
  return null;
}

/** A form's submit button (its words change while it works) and, when editing, Cancel. */
export function FormButtons(props: { busy: boolean; label: string; busyLabel: string; onCancel?: () => void }) {
  return (
    <div className="buttons">
      <button type="submit" disabled={props.busy}>
        {props.busy ? props.busyLabel : props.label}
      </button>
      {props.onCancel ? (
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
