/** Names clients see, shared with the control plane's write-time checks: see @atrium/contract/tool-names. */
export {
  createNameAllocator,
  defaultToolNames,
  MAX_PROPERTY_NAME_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  type NameAllocator,
  validName,
} from "@atrium/contract/tool-names";
