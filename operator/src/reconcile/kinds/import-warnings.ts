/**
 * A Service's `ImportWarnings` condition: what the control plane's last import of its document
 * changed so that every JSON Schema validator compiles the tools' schemas (patterns rewritten or
 * dropped, unknown formats dropped), with how many and the first few, so `kubectl describe`
 * shows it. The REST API's `importWarnings` list them all.
 */

import type { ImportWarning } from "@atrium/contract/rest";
import { IMPORT_WARNINGS_CONDITION } from "@atrium/crds";
import type { AtriumObject } from "../../kube/objects.ts";
import type { Condition } from "../status.ts";

/** Warnings quoted in the message; the rest are counted. */
const QUOTED = 3;
/**
 * Characters quoted of each: a warning quotes its pattern (twice when rewritten), of any length,
 * and the API server refuses a condition message over 32,768 characters, with the whole status.
 */
const QUOTED_CHARACTERS = 4096;

function quote(warning: ImportWarning): string {
  const text = `${warning.code}: ${warning.message}`;
  return text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS)}…` : text;
}

/** The condition for `warnings`, those the Service's record lists. */
export function importWarningsCondition(
  object: AtriumObject,
  warnings: ImportWarning[],
): Omit<Condition, "lastTransitionTime"> {
  const generation = object.metadata.generation;
  const observed = generation === undefined ? {} : { observedGeneration: generation };
  if (warnings.length === 0)
    return {
      type: IMPORT_WARNINGS_CONDITION,
      status: "False",
      reason: "NoChanges",
      message: "The import kept every schema of the document as written.",
      ...observed,
    };
  const quoted = warnings.slice(0, QUOTED).map(quote);
  const rest =
    warnings.length > QUOTED ? ` (the first ${QUOTED}; the Service's importWarnings in the REST API list all)` : "";
  return {
    type: IMPORT_WARNINGS_CONDITION,
    status: "True",
    reason: "SchemasChanged",
    message: `The import changed the document in ${warnings.length} ${warnings.length === 1 ? "place" : "places"} so that every JSON Schema validator compiles its tools' schemas${rest}: ${quoted.join("; ")}`,
    ...observed,
  };
}
