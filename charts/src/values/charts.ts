/**
 * The charts and the Zod schema of each one's values: the one source of their values.yaml,
 * values.schema.json and README values table (see generated-files.ts).
 */
import type { z } from "zod";
import { controlPlaneValues } from "./control-plane.ts";
import { controllersValues } from "./controllers.ts";
import { gatewayValues } from "./gateway.ts";

export interface ChartDefinition {
  /** Folder under charts/ and the chart's name. */
  name: string;
  values: z.ZodType;
}

export const charts: readonly ChartDefinition[] = [
  { name: "control-plane", values: controlPlaneValues },
  { name: "gateway", values: gatewayValues },
  { name: "controllers", values: controllersValues },
];
