/** A destructive action behind a confirmation in the page (no dialog box): the first click asks, the second acts. */
import { useEffect, useRef, useState } from "react";
import { attempt, describeFailure, type Problem } from "./api.ts";
import type { Outcome } from "./outcome.tsx";

export function ConfirmButton(props: {
  /** The button's words: "Revoke", "Delete". */
  action: string;
  /** What is acted on, for the question and the buttons' accessible names. */
  subject: string;
  /** What follows, in words: "Gateways using it are refused at once." */
  consequence: string;
  onConfirm: () => Promise<void> | void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Keyboard users land on the question's answer, and back on the button when it is answered
  // (unless what it acted on is gone).
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (asked.current) ask.current?.focus();
    asked.current = asking;
  }, [asking]);
  if (!asking) {
    return (
      <button
        ref={ask}
        type="button"
        className="secondary danger"
        aria-label={`${props.action} ${props.subject}`}
        onClick={() => setAsking(true)}
      >
        {props.action}
      </button>
    );
  }
  return (
    <fieldset className="confirm">
      <legend>
        {props.action} {props.subject}? {props.consequence}
      </legend>
      <button
        ref={confirm}
        type="button"
        className="danger"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await props.onConfirm();
          setBusy(false);
          setAsking(false);
        }}
      >
        Yes, {props.action.toLowerCase()}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}

/**
 * A row's Delete (or Revoke) behind a confirmation: calls `remove`, says what came of it through
 * `onOutcome` (`done`, or "Could not delete <name>: why"), and calls `onRemoved` when it worked.
 */
export function RemoveButton(props: {
  action?: string;
  subject: string;
  name: string;
  consequence: string;
  done: string;
  remove: () => Promise<{ error?: Problem; response: Response }>;
  onOutcome: (outcome: Outcome) => void;
  onRemoved: () => Promise<void> | void;
}) {
  const action = props.action ?? "Delete";
  return (
    <ConfirmButton
      action={action}
      subject={props.subject}
      consequence={props.consequence}
      onConfirm={async () => {
        props.onOutcome({});
        const { error, response } = await attempt(props.remove);
        if (!response?.ok) {
          props.onOutcome({
            failure: `Could not ${action.toLowerCase()} ${props.name}: ${describeFailure(error, response)}`,
          });
          return;
        }
        props.onOutcome({ done: props.done });
        await props.onRemoved();
      }}
    />
  );
}
