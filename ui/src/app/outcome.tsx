/** What an action came to, in words, and the end of a form that saves through the REST API. */
import { useState } from "react";
import { attempt, describeFailure, type Problem } from "./api.ts";

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

/** A form's sending: `busy` while a call runs, and `failure`, why the last one (or a check before it) failed. */
export function useSaving() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  /** Runs `call`; its data, or undefined after saying why not, after `refusal` ("The group was not saved"). */
  async function save<D>(
    call: () => Promise<{ data?: D; error?: Problem; response: Response }>,
    refusal: string,
  ): Promise<D | undefined> {
    setBusy(true);
    setFailure(undefined);
    const { data, error, response } = await attempt(call);
    setBusy(false);
    if (!data) setFailure(`${refusal}: ${describeFailure(error, response)}`);
    return data;
  }
  return { busy, failure, setFailure, save };
}

/** A form's end: why it was not saved, its submit button (its words change while it works) and, when editing, Cancel. */
export function FormButtons(props: {
  busy: boolean;
  failure?: string;
  label: string;
  busyLabel: string;
  onCancel?: () => void;
}) {
  return (
    <>
      <OutcomeView outcome={{ failure: props.failure }} />
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
    </>
  );
}
