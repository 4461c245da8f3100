/**
 * The parts of a CompiledExposition that tools are compiled from. The stream contract is the one
 * source of these shapes; the aliases only name its nested parts.
 */
import type { CompiledExposition } from "@atrium/contract";

export type { CompiledExposition };
export type Operation = CompiledExposition["service"]["operations"][number];
export type OperationParameter = Operation["parameters"][number];
export type OperationRequestBody = NonNullable<Operation["requestBody"]>;
export type CustomTool = CompiledExposition["customTools"][number];
