import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { McpError } from "../mcp/protocol.ts";
import { ClusterKeyring } from "./cluster-keys.ts";
import {
  type ArgumentAsking,
  argumentForm,
  declaresFormElicitation,
  openArgumentState,
  requiredPromptArguments,
  requiredToolArguments,
  sealArgumentState,
  withAskedArguments,
} from "./missing-arguments.ts";
import { sealRequestState } from "./request-state.ts";

const keyring = new ClusterKeyring([randomBytes(32)]);
const asking: ArgumentAsking = {
  keyring,
  clientCapabilities: { elicitation: {} },
  principal: { iss: "https://id.example.com", sub: "ana" },
  expositionId: "expo-1",
};

const INPUT_SCHEMA = {
  type: "object",
  properties: {
    petId: { type: "integer", description: "The pet's id", minimum: 1 },
    note: { type: "string" },
    body: { $ref: "#/$defs/Pet", description: "The pet" },
  },
  required: ["petId", "body"],
  $defs: {
    Pet: {
      type: "object",
      properties: { name: { type: "string", pattern: "^[A-Z]" }, age: { type: "integer" } },
      required: ["name"],
    },
  },
};
const required = requiredToolArguments(INPUT_SCHEMA);

/** The refusal `work` throws: an McpError's code and reason. */
function refusal(work: () => unknown) {
  try {
    work();
  } catch (error) {
    if (error instanceof McpError) return { code: error.code, reason: (error.data as { reason?: string })?.reason };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("the forms", () => {
  it("asks a primitive argument as a one-field form, and an object of primitives (a $defs body) as its properties", () => {
    expect(required.map((argument) => argument.name)).toEqual(["petId", "body"]);
    expect(required[0]?.form).toEqual({
      type: "object",
      properties: { petId: { type: "integer", description: "The pet's id", minimum: 1 } },
      required: ["petId"],
    });
    // `pattern` is not a form keyword: left to the call's own validation.
    expect(required[1]?.form).toEqual({
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer" } },
      required: ["name"],
    });
  });

  it("cannot ask arrays, nested objects, unknown formats' fields aside", () => {
    expect(argumentForm("tags", { type: "array", items: { type: "string" } })).toBeUndefined();
    expect(argumentForm("owner", { type: "object", properties: { address: { type: "object" } } })).toBeUndefined();
    expect(argumentForm("owner", { type: "object", properties: {} })).toBeUndefined();
    expect(argumentForm("ref", { $ref: "#/components/schemas/X" })).toBeUndefined();
    expect(argumentForm("at", { type: "string", format: "uuid" })?.properties.at).toEqual({ type: "string" });
    expect(argumentForm("mail", { type: "string", format: "email" })?.properties.mail).toEqual({
      type: "string",
      format: "email",
    });
  });

  it("asks a prompt's required arguments as text", () => {
    const asked = requiredPromptArguments([
      { name: "city", description: "Which city", required: true },
      { name: "units", required: false },
    ]);
    expect(asked).toEqual([
      {
        name: "city",
        description: "Which city",
        form: {
          type: "object",
          properties: { city: { type: "string", description: "Which city" } },
          required: ["city"],
        },
      },
    ]);
  });

  it("reads form mode from the declared capabilities (an empty elicitation object is form mode)", () => {
    expect(declaresFormElicitation({ elicitation: {} })).toBe(true);
    expect(declaresFormElicitation({ elicitation: { form: {} } })).toBe(true);
    expect(declaresFormElicitation({ elicitation: { form: {}, url: {} } })).toBe(true);
    expect(declaresFormElicitation({ elicitation: { url: {} } })).toBe(false);
    expect(declaresFormElicitation({ sampling: {} })).toBe(false);
    expect(declaresFormElicitation(undefined)).toBe(false);
  });
});

describe("withAskedArguments", () => {
  it("asks for each missing argument under its name, then merges the answers across rounds", () => {
    const first = withAskedArguments(asking, "tool:getPet", required, { arguments: { note: "hi" } });
    if (first.kind !== "input-required") throw new Error("expected input_required");
    expect(Object.keys(first.result.inputRequests)).toEqual(["petId", "body"]);
    expect(first.result.inputRequests.petId).toEqual({
      method: "elicitation/create",
      params: { mode: "form", message: "getPet needs petId: The pet's id", requestedSchema: required[0]?.form },
    });
    // Round 2: petId answered, body answered with the wrong type: asked again, petId kept in the state.
    const second = withAskedArguments(asking, "tool:getPet", required, {
      arguments: { note: "hi" },
      requestState: first.result.requestState,
      inputResponses: {
        petId: { action: "accept", content: { petId: 7 } },
        body: { action: "accept", content: { name: 42 } },
        stray: { action: "accept", content: { x: 1 } },
      },
    });
    if (second.kind !== "input-required") throw new Error("expected input_required");
    expect(Object.keys(second.result.inputRequests)).toEqual(["body"]);
    expect(second.result.requestState).not.toBe(first.result.requestState);
    // Round 3: the state brings petId back; the client resends only its own arguments.
    const third = withAskedArguments(asking, "tool:getPet", required, {
      arguments: { note: "hi" },
      requestState: second.result.requestState,
      inputResponses: { body: { action: "accept", content: { name: "Rex", ignored: true } } },
    });
    expect(third).toEqual({ kind: "arguments", arguments: { note: "hi", petId: 7, body: { name: "Rex" } } });
  });

  it("keeps the usual path when asking cannot help", () => {
    const usual = (params: Record<string, unknown>, who: ArgumentAsking = asking) =>
      withAskedArguments(who, "tool:getPet", required, params);
    // Nothing missing.
    expect(usual({ arguments: { petId: 1, body: { name: "Rex" } } }).kind).toBe("arguments");
    // A client without form-mode elicitation.
    expect(usual({}, { ...asking, clientCapabilities: { elicitation: { url: {} } } })).toEqual({
      kind: "arguments",
      arguments: {},
    });
    // Declined: the usual missing-argument error follows.
    expect(usual({ inputResponses: { petId: { action: "decline" } } }).kind).toBe("arguments");
    // An argument no form can ask for.
    const tags = requiredToolArguments({
      type: "object",
      properties: { tags: { type: "array" }, petId: { type: "integer" } },
      required: ["tags", "petId"],
    });
    expect(withAskedArguments(asking, "tool:tag", tags, {}).kind).toBe("arguments");
    // Arguments that are not an object go to the usual validation untouched.
    expect(usual({ arguments: [1] })).toEqual({ kind: "arguments", arguments: [1] });
  });

  it("refuses inputResponses that are not an object, and a requestState that is not a string", () => {
    expect(refusal(() => withAskedArguments(asking, "tool:getPet", required, { inputResponses: null }))).toEqual({
      code: -32602,
      reason: undefined,
    });
    expect(refusal(() => withAskedArguments(asking, "tool:getPet", required, { requestState: 7 })).code).toBe(-32602);
  });
});

describe("the sealed state", () => {
  const state = sealArgumentState(asking, "tool:getPet", { petId: 7 });

  it("opens for the same caller, Exposition and tool, and hides the answers", () => {
    expect(openArgumentState(asking, "tool:getPet", state)).toEqual({ petId: 7 });
    expect(state).not.toContain("petId");
  });

  it("refuses each mismatch with its own reason", () => {
    const open = (who: ArgumentAsking, target: string, text: string = state, now?: number) =>
      refusal(() => openArgumentState(who, target, text, now)).reason;
    // The suite's tampering: base64url characters appended, so the integrity check fails.
    expect(open(asking, "tool:getPet", `${state}-TAMPERED`)).toBe("tampered");
    expect(open(asking, "tool:getPet", "not a state")).toBe("malformed");
    expect(open(asking, "tool:getPet", "x".repeat(70_000))).toBe("malformed");
    const flipped = `${state.slice(0, -2)}${state.endsWith("A") ? "B" : "A"}${state.slice(-1)}`;
    expect(open(asking, "tool:getPet", flipped)).toBe("tampered");
    expect(open(asking, "prompt:getPet")).toBe("other-tool");
    expect(open({ ...asking, expositionId: "expo-2" }, "tool:getPet")).toBe("other-exposition");
    expect(open({ ...asking, principal: { iss: "https://id.example.com", sub: "bob" } }, "tool:getPet")).toBe(
      "other-user",
    );
    expect(open({ ...asking, principal: undefined }, "tool:getPet")).toBe("other-user");
    expect(open(asking, "tool:getPet", state, Date.now() / 1000 + 3600)).toBe("expired");
    expect(open({ ...asking, keyring: new ClusterKeyring([randomBytes(32)]) }, "tool:getPet")).toBe("unknown-key");
  });

  it("never opens a credential's requestState: each has a key of its own", () => {
    const credentialState = sealRequestState(
      keyring,
      { principal: asking.principal ?? { sessionId: "s" }, expositionId: "expo-1", tool: "getPet", arguments: {} },
      "elicitation-id",
    );
    expect(refusal(() => openArgumentState(asking, "tool:getPet", credentialState)).reason).toBe("tampered");
  });
});
