/**
 * Output filters of a plan's tools, the part the control plane and the gateway share: compiling
 * and applying `retain`, and deriving a tool's outputSchema through `retain` and `patches`.
 */
export { type Derived, deriveOutputSchema, type FilterSteps, type PatchOperation } from "./derive.ts";
export { compileRetain, pointerTokens, type RetainNode, retainDocument } from "./retain.ts";
