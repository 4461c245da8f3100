/**
 * A violation names one field, Kubernetes style (`spec.secretRefs[1].keys[0]`, `spec.labels[bad key!]`),
 * and says what is wrong with it; a refusal lists all of them in one message.
 */

export interface Violation {
  /** Kubernetes field path of the offending value. */
  field: string;
  message: string;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Renders a path as Kubernetes does: `.name` for fields, `[0]` for list items, `[key]` for map
 * keys. A Zod path does not say whether a string is a field or a map key, so strings that are not
 * identifiers are taken as keys; `lastIsKey` forces the last segment to render as a key.
 */
export function fieldPath(path: readonly PropertyKey[], lastIsKey = false): string {
  let rendered = "";
  path.forEach((segment, index) => {
    const key = typeof segment === "symbol" ? segment.toString() : String(segment);
    const asKey = typeof segment === "number" || !identifier.test(key) || (lastIsKey && index === path.length - 1);
    rendered += asKey ? `[${key}]` : rendered === "" ? key : `.${key}`;
  });
  return rendered === "" ? "<root>" : rendered;
}

/** One line for all violations: `spec.a: must be x; spec.b: must be y`. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map(({ field, message }) => `${field}: ${message}`).join("; ");
}
