/**
 * The plan form's inputs: each with its label, help text and, when the server (or the form) refused
 * it, the reason beside it, tied to the input with aria-describedby.
 */
import { type ReactNode, useId } from "react";
import type { PlanForm, TextField } from "./plan-fields.ts";

/** What every input needs: the form's values, how to change one, and the reasons fields were refused. */
export interface FormKit {
  form: PlanForm;
  update: <K extends keyof PlanForm>(key: K, value: PlanForm[K]) => void;
  problems: Partial<Record<keyof PlanForm, string>>;
}

function Described({ id, help, problem }: { id: string; help?: ReactNode; problem?: string }) {
  return (
    <>
      {help ? (
        <span className="help" id={`${id}-help`}>
          {help}
        </span>
      ) : null}
      {problem ? (
        <span className="field-error" id={`${id}-error`}>
          {problem}
        </span>
      ) : null}
    </>
  );
}

function describedBy(id: string, help: unknown, problem: unknown): string | undefined {
  return [help ? `${id}-help` : "", problem ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

export function TextInput(props: {
  kit: FormKit;
  field: TextField;
  label: string;
  help?: ReactNode;
  type?: "text" | "url" | "number";
  rows?: number;
  required?: boolean;
  placeholder?: string;
}) {
  const id = useId();
  const { kit, field, help } = props;
  const problem = kit.problems[field];
  const common = {
    id,
    name: field,
    value: kit.form[field],
    required: props.required,
    placeholder: props.placeholder,
    autoComplete: "off",
    spellCheck: false,
    "aria-invalid": problem ? true : undefined,
    "aria-describedby": describedBy(id, help, problem),
  } as const;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.rows ? (
        <textarea
          {...common}
          rows={props.rows}
          className="code"
          onChange={(event) => kit.update(field, event.target.value)}
        />
      ) : (
        <input
          {...common}
          type={props.type === "number" ? "text" : (props.type ?? "text")}
          inputMode={props.type === "number" ? "decimal" : undefined}
          onChange={(event) => kit.update(field, event.target.value)}
        />
      )}
      <Described id={id} help={help} problem={problem} />
    </div>
  );
}

export function SelectInput<K extends keyof PlanForm>(props: {
  kit: FormKit;
  field: K;
  label: string;
  help?: ReactNode;
  options: { value: PlanForm[K] & string; label: string }[];
}) {
  const id = useId();
  const { kit, field, help } = props;
  const problem = kit.problems[field];
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={field}
        value={String(kit.form[field])}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy(id, help, problem)}
        onChange={(event) => kit.update(field, event.target.value as PlanForm[K])}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Described id={id} help={help} problem={problem} />
    </div>
  );
}

/** Radio buttons in a fieldset, each choice with a line of help. */
export function ChoiceInput<K extends keyof PlanForm>(props: {
  kit: FormKit;
  field: K;
  legend: string;
  choices: { value: PlanForm[K] & string; label: string; help: string }[];
}) {
  const id = useId();
  const { kit, field } = props;
  const problem = kit.problems[field];
  return (
    <fieldset className="radio-group" aria-describedby={problem ? `${id}-error` : undefined}>
      <legend>{props.legend}</legend>
      {props.choices.map((choice) => (
        <label key={choice.value} className="choice">
          <input
            type="radio"
            name={field}
            value={choice.value}
            checked={kit.form[field] === choice.value}
            onChange={() => kit.update(field, choice.value)}
          />
          <span>
            {choice.label}
            <span className="help">{choice.help}</span>
          </span>
        </label>
      ))}
      <Described id={id} problem={problem} />
    </fieldset>
  );
}

export function CheckInput(props: {
  kit: FormKit;
  field: "audit" | "breakerEnabled" | "elicitMissingArguments";
  label: string;
  help: string;
}) {
  const id = useId();
  const { kit, field } = props;
  const problem = kit.problems[field];
  return (
    <div className="field">
      <label className="choice" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          name={field}
          checked={kit.form[field]}
          aria-describedby={describedBy(id, props.help, problem)}
          onChange={(event) => kit.update(field, event.target.checked)}
        />
        {props.label}
      </label>
      <Described id={id} help={props.help} problem={problem} />
    </div>
  );
}
