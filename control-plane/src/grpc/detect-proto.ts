/**
 * Whether an uploaded text is a .proto file, when the request does not say its kind: its first
 * statement (after `//` and `/* *\/` comments) is one only protobuf has — `syntax =`, `edition =`,
 * `package`, `import`, `message`, `service` or `option`. GraphQL SDL has none of them (nor these
 * comments), and neither JSON nor an OpenAPI YAML document starts so.
 */
const protoStart =
  /^(?:\/\/[^\n]*(?:\n|$)\s*|\/\*[\s\S]*?\*\/\s*)*(?:(?:syntax|edition)\s*=|(?:package|import|message|service|option)\s+["\w.])/;

export function looksLikeProto(text: string): boolean {
  return protoStart.test(text.replace(/^\uFEFF/, "").trimStart());
}
