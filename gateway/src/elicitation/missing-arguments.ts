/**
 * Asking the user for missing arguments (plan `elicitMissingArguments`, MCP 2026-07-28): a
 * `tools/call` or `prompts/get` that lacks required arguments, from a client that declared
 * form-mode elicitation, is answered `input_required` with one form-mode `elicitation/create` per
 * missing argument, keyed by the argument's name. A primitive argument is asked as a form of one
 * field named after it; an object argument whose properties are all primitive is asked as a form
 * of those properties. The retry's `inputResponses` are merged into the arguments; what is still
 * missing (unanswered, or answered with the wrong types) is asked again in a new round.
 *
 * The answers of earlier rounds travel in the `requestState`, sealed with the cluster key under a
 * purpose of its own (cluster-keys.ts: a credential's state never opens here) and bound to the
 * caller (the OAuth user, when there is one), the Exposition, the tool or prompt and an expiry.
 * It holds nothing the caller could not have sent as arguments, so without OAuth it is bound to
 * no user.
 *
 * The usual path is kept whenever asking cannot help: an argument that is not askable (arrays,
 * nested objects, `$ref`s), a client without form-mode elicitation, a declined or cancelled form.
 * The call then gets the usual missing-argument error.
 */
import { ERROR, McpError } from "../mcp/protocol.ts";
import { isPlainObject } from "../tools/schema.ts";
import type { ClusterKeyring } from "./cluster-keys.ts";
import type { InputRequiredResult } from "./flow.ts";
import {
  principalKey,
  REQUEST_STATE_REFUSALS,
  REQUEST_STATE_TTL_SECONDS,
  type RequestPrincipal,
  type RequestStateRefusal,
} from "./request-state.ts";

/** What one request of the feature needs: the keyring, the client's capabilities, who asks. */
export interface ArgumentAsking {
  keyring: ClusterKeyring;
  clientCapabilities: unknown;
  principal: RequestPrincipal | undefined;
  expositionId: string;
}

/** A required argument of a tool or prompt; `form` undefined when it cannot be asked for. */
export interface RequiredArgument {
  name: string;
  description?: string;
  form: FormSchema | undefined;
}

type FieldType = "string" | "number" | "integer" | "boolean";
type FormField = { type: FieldType } & Record<string, unknown>;
interface FormSchema {
  type: "object";
  properties: Record<string, FormField>;
  required: string[];
}

/** Keywords a form field keeps (what MCP form elicitation allows on primitive fields). */
const FIELD_KEYWORDS = [
  "title",
  "description",
  "enum",
  "default",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "format",
] as const;
const FIELD_TYPES = new Set<unknown>(["string", "number", "integer", "boolean"]);
/** Formats MCP form elicitation allows on a string field; other formats are dropped from the form (the call still checks them). */
const FIELD_FORMATS = new Set<unknown>(["email", "uri", "date", "date-time"]);
/** A sealed state is refused unread past this length: it holds the arguments answered so far. */
export const ARGUMENT_STATE_MAX_LENGTH = 64 * 1024;

function formField(schema: unknown, description: string | undefined): FormField | undefined {
  if (!isPlainObject(schema) || !FIELD_TYPES.has(schema.type)) return undefined;
  const field: FormField = { type: schema.type as FieldType };
  for (const keyword of FIELD_KEYWORDS) {
    if (schema[keyword] === undefined) continue;
    if (keyword === "format" && !FIELD_FORMATS.has(schema.format)) continue;
    field[keyword] = schema[keyword];
  }
  if (field.description === undefined && description) field.description = description;
  return field;
}

/** The form asking for one argument of this schema, or undefined when a form cannot. */
export function argumentForm(name: string, schema: unknown, description?: string): FormSchema | undefined {
  const field = formField(schema, description);
  if (field) return { type: "object", properties: { [name]: field }, required: [name] };
  if (!isPlainObject(schema) || schema.type !== "object" || !isPlainObject(schema.properties)) return undefined;
  const properties: Record<string, FormField> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    const inner = formField(property, undefined);
    if (!inner) return undefined;
    properties[key] = inner;
  }
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => key in properties) : [];
  return Object.keys(properties).length > 0 ? { type: "object", properties, required } : undefined;
}

/** The required arguments of a prompt: text, asked as a string field. */
export function requiredPromptArguments(
  args: readonly { name: string; description?: string; required?: boolean }[] | undefined,
): RequiredArgument[] {
  return (args ?? [])
    .filter((argument) => argument.required)
    .map(({ name, description }) => ({ name, description, form: argumentForm(name, { type: "string" }, description) }));
}

/** A property that is a `$ref` to one of the schema's own `$defs` (how imported request bodies come): the definition. */
function localDefinition(property: unknown, defs: Record<string, unknown>): unknown {
  const ref = isPlainObject(property) ? property.$ref : undefined;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return property;
  const definition = defs[ref.slice("#/$defs/".length)];
  // Keywords beside the $ref (the body's description) apply too.
  return isPlainObject(definition) && isPlainObject(property)
    ? { ...definition, ...property, $ref: undefined }
    : property;
}

/** The required arguments of a tool's input schema, in the order of its properties. */
export function requiredToolArguments(inputSchema: unknown): RequiredArgument[] {
  if (!isPlainObject(inputSchema) || !isPlainObject(inputSchema.properties) || !Array.isArray(inputSchema.required))
    return [];
  const required = new Set(inputSchema.required);
  const defs = isPlainObject(inputSchema.$defs) ? inputSchema.$defs : {};
  return Object.entries(inputSchema.properties)
    .filter(([name]) => required.has(name))
    .map(([name, property]) => {
      const schema = localDefinition(property, defs);
      const description = isPlainObject(schema) && typeof schema.description === "string" ? schema.description : "";
      return { name, description, form: argumentForm(name, schema, description || undefined) };
    });
}

function fits(field: FormField, value: unknown): boolean {
  if (Array.isArray(field.enum) && !field.enum.includes(value)) return false;
  switch (field.type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value);
    default:
      return typeof value === "number" && Number.isFinite(value);
  }
}

/** The argument's value from an accepted form's content; undefined when the content does not fill the form. */
function answerOf(argument: RequiredArgument, content: unknown): unknown {
  const form = argument.form;
  if (!form || !isPlainObject(content)) return undefined;
  const single = form.properties[argument.name];
  if (single && Object.keys(form.properties).length === 1 && form.required[0] === argument.name) {
    return fits(single, content[argument.name]) ? content[argument.name] : undefined;
  }
  const value: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(form.properties)) {
    const given = content[key];
    if (given === undefined) {
      if (form.required.includes(key)) return undefined;
    } else if (fits(field, given)) value[key] = given;
    else return undefined;
  }
  return value;
}

/** Whether the client declared form-mode elicitation (an empty `elicitation` object means form mode). */
export function declaresFormElicitation(capabilities: unknown): boolean {
  const elicitation = isPlainObject(capabilities) ? capabilities.elicitation : undefined;
  return isPlainObject(elicitation) && (elicitation.form !== undefined || elicitation.url === undefined);
}

export type ArgumentsOutcome =
  | { kind: "arguments"; arguments: unknown }
  | { kind: "input-required"; result: InputRequiredResult };

/**
 * The call's arguments with the answers merged in, or an `input_required` result asking for what
 * is missing. `target` names what is called (`tool:<name>` or `prompt:<name>`), bound in the state.
 */
export function withAskedArguments(
  asking: ArgumentAsking,
  target: string,
  required: RequiredArgument[],
  params: Record<string, unknown>,
): ArgumentsOutcome {
  const { inputResponses, requestState } = params;
  if (inputResponses !== undefined && !isPlainObject(inputResponses))
    throw new McpError(ERROR.invalidParams, "inputResponses must be an object keyed by the input requests", 400);
  const given = params.arguments;
  // Arguments that are not an object get the usual validation error.
  if (given !== undefined && !isPlainObject(given)) return { kind: "arguments", arguments: given };
  const answered = requestState === undefined ? {} : openArgumentState(asking, target, requestState);
  const args: Record<string, unknown> = { ...answered, ...given };
  let declined = false;
  for (const argument of required) {
    if (args[argument.name] !== undefined) continue;
    const response = inputResponses?.[argument.name];
    if (!isPlainObject(response)) continue;
    if (response.action === "decline" || response.action === "cancel") declined = true;
    if (response.action !== "accept") continue;
    const value = answerOf(argument, response.content);
    if (value !== undefined) args[argument.name] = value;
  }
  const missing = required.filter((argument) => args[argument.name] === undefined);
  const canAsk =
    missing.length > 0 &&
    !declined &&
    missing.every((argument) => argument.form !== undefined) &&
    declaresFormElicitation(asking.clientCapabilities);
  if (!canAsk) return { kind: "arguments", arguments: args };
  const name = target.slice(target.indexOf(":") + 1);
  return {
    kind: "input-required",
    result: {
      resultType: "input_required",
      inputRequests: Object.fromEntries(
        missing.map((argument) => [
          argument.name,
          {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: `${name} needs ${argument.name}${argument.description ? `: ${argument.description}` : ""}`,
              requestedSchema: argument.form,
            },
          },
        ]),
      ),
      requestState: sealArgumentState(asking, target, args),
    },
  };
}

/** What is sealed, in short keys: principal, Exposition, target, answered arguments, expiry. */
interface Sealed {
  p: string;
  e: string;
  t: string;
  g: Record<string, unknown>;
  x: number;
}

/** Sealed with an empty context: the bound facts are inside, so each mismatch gets its own reason. */
const CONTEXT = "";

function principalOf(asking: ArgumentAsking): string {
  return asking.principal ? principalKey(asking.principal) : "";
}

export function sealArgumentState(
  asking: ArgumentAsking,
  target: string,
  answered: Record<string, unknown>,
  now = Date.now() / 1000,
): string {
  const sealed: Sealed = {
    p: principalOf(asking),
    e: asking.expositionId,
    t: target,
    g: answered,
    x: Math.floor(now + REQUEST_STATE_TTL_SECONDS),
  };
  return asking.keyring.seal("argument-state", Buffer.from(JSON.stringify(sealed)), CONTEXT);
}

/** The arguments answered in earlier rounds; a state this gateway did not issue for this call is invalid params. */
export function openArgumentState(
  asking: ArgumentAsking,
  target: string,
  text: unknown,
  now = Date.now() / 1000,
): Record<string, unknown> {
  const refuse = (reason: RequestStateRefusal) =>
    new McpError(ERROR.invalidParams, REQUEST_STATE_REFUSALS[reason], 400, { reason });
  if (typeof text !== "string")
    throw new McpError(ERROR.invalidParams, "requestState must be the string the gateway issued", 400);
  if (text.length > ARGUMENT_STATE_MAX_LENGTH) throw refuse("malformed");
  const opened = asking.keyring.open("argument-state", text, CONTEXT);
  if (!opened.ok) throw refuse(opened.reason);
  const state = JSON.parse(opened.plaintext.toString("utf8")) as Sealed;
  if (now >= state.x) throw refuse("expired");
  if (state.p !== principalOf(asking)) throw refuse("other-user");
  if (state.e !== asking.expositionId) throw refuse("other-exposition");
  if (state.t !== target) throw refuse("other-tool");
  return state.g;
}
