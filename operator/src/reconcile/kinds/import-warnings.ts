/**
 * A Service's `ImportWarnings` condition: what the control plane's last import of its document
 * changed so that every JSON Schema validator compiles the tools' schemas (patterns rewritten or
 * dropped, unknown formats dropped), with how many and the first few, so `kubectl describe`
 * shows it. The REST API's `importWarnings` list them all.
 */

import type { ImportWarning } from "@atrium/contract/rest";
import { IMPORT_WARNINGS_CONDITION } from "@atrium/crds";
import type { AtriumObject } from "../../kube/objects.ts";
import { type Condition, conditionOf } from "../status.ts";

/** Warnings quoted in a condition's message; the rest are counted. */
export const QUOTED_WARNINGS = 3;
/**
 * Characters quoted of each: a warning quotes its pattern (twice when rewritten), of any length,
 * and the API server refuses a condition message over 32,768 characters, with the whole status.
 */
const QUOTED_CHARACTERS = 4096;

/** The first few of `texts`, each cut, joined for a condition's message (the plan's WriteWarnings too). */
export function quoteFirst(texts: string[]): string {
  return texts
    .slice(0, QUOTED_WARNINGS)
    .map((text) => (text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS)}…` : text))
    .join("; ");
}

/** The condition for `warnings`, those the Service's record lists. */
export function importWarningsCondition(
  object: AtriumObject,
  warnings: ImportWarning[],
): Omit<Condition, "lastTransitionTime"> {
  const type = IMPORT_WARNINGS_CONDITION;
  if (warnings.length === 0)
    return conditionOf(object, {
      type,
      status: "False",
      reason: "NoChanges",
      message: "The import kept every schema of the document as written.",
    });
  const quoted = quoteFirst(warnings.map((warning) => `${warning.code}: ${warning.message}`));
  const rest =
    warnings.length > QUOTED_WARNINGS
      ? ` (the first ${QUOTED_WARNINGS}; the Service's importWarnings in the REST API list all)`
      : "";
  return conditionOf(object, {
    type,
    status: "True",
    reason: "SchemasChanged",
    message: `The import changed the document in ${warnings.length} ${warnings.length === 1 ? "place" : "places"} so that every JSON Schema validator compiles its tools' schemas${rest}: ${quoted}`,
  });
}
