/**
 * A list page whose form creates an item or edits one chosen in the list (Edit, Replace), and what
 * the last action came to.
 */
import { useState } from "react";
import type { Outcome } from "./outcome.tsx";

export function useEditing<T extends { id: string | number }>(reload: () => Promise<void>) {
  const [editing, setEditing] = useState<T>();
  const [outcome, setOutcome] = useState<Outcome>({});
  return {
    /** The item in the form; undefined: the form creates one. */
    editing,
    outcome,
    /** Fills the form with `item`, clearing the last outcome. */
    edit: (item: T) => {
      setOutcome({});
      setEditing(item);
    },
    /** What removing the item `id` came to; the form lets go of it. */
    removed: (id: T["id"]) => (removal: Outcome) => {
      setOutcome(removal);
      if (editing?.id === id) setEditing(undefined);
    },
    /** The form's key: a fresh form for each item. */
    formKey: String(editing?.id ?? "new"),
    cancel: () => setEditing(undefined),
    /** A save worked: the form is emptied, `done` said, the list reloaded. */
    saved: (done: string) => {
      setEditing(undefined);
      setOutcome({ done });
      void reload();
    },
  };
}
