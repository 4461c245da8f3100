/** Schemas made fit to publish and to compile with ajv, shared with the control plane: see @atrium/contract/tool-schema. */
export {
  hoistDefs,
  isPlainObject,
  type PrepareOptions,
  prepareSchema,
  type SchemaUse,
} from "@atrium/contract/tool-schema";
