/**
 * One operation of a gRPC Service (it carries a `grpc` call recipe) into one tool that calls the
 * method on the plan's `grpc://` or `grpcs://` endpoint.
 *
 * The tool's arguments are the request message in proto3 JSON: the importer's schema of it is the
 * request body's, and the response's (or, for a server-streaming method, `{messages, truncated}`)
 * the 200 answer's. A call validates the arguments against that schema, then encodes them with
 * the method's descriptors (codec.ts): a value the schema lets through but the proto3 JSON mapping
 * refuses (an int64 out of range, say) is an invalid-arguments result too, never a failed call.
 * The encoded message is kept from `validate` for the `buildRequest` that follows it at once
 * (runtime.ts calls them back to back), so a call encodes once.
 *
 * Results: result.ts of this folder. Everything else a call goes through (auth, metadata from the
 * header policy and backend secret, deadline, breaker, limits, audit) is the same as for any tool.
 */
import type { CompiledExposition, GrpcCall } from "@atrium/contract";
import { DEFAULT_MAX_STREAM_MESSAGES } from "@atrium/crds";
import { bodyArgumentsTool } from "../tools/body-arguments.ts";
import { type CatalogEntry, operationSearchText } from "../tools/discovery.ts";
import type { BackendRequest } from "../tools/request.ts";
import { conformingResult } from "../tools/result.ts";
import type { ToolRuntime } from "../tools/runtime.ts";
import type { Operation } from "../tools/source.ts";
import type { ValidatorCompiler } from "../tools/validator.ts";
import { isGrpcOrigin } from "./channels.ts";
import { GrpcRegistries, methodCodec } from "./codec.ts";
import { grpcResult } from "./result.ts";

/**
 * The compiler of an Exposition's gRPC tools: its descriptor sets decoded once for all of them,
 * the plan's stream limit. An operation with a gRPC recipe on a plan whose endpoint is not
 * grpc:// or grpcs:// is refused (the tool is left out): it could call nothing.
 */
export function grpcToolCompiler(exposition: CompiledExposition) {
  const context = {
    registries: new GrpcRegistries(),
    maxStreamMessages: exposition.plan.grpc?.maxStreamMessages ?? DEFAULT_MAX_STREAM_MESSAGES,
  };
  const endpoint = exposition.plan.backendEndpoint;
  const grpcEndpoint = isGrpcOrigin(endpoint.replace(/\/$/, ""));
  return (operation: Operation, call: GrpcCall, name: string, validators: ValidatorCompiler): CatalogEntry => {
    if (!grpcEndpoint) throw new Error("a gRPC method, and the plan's backendEndpoint is not grpc:// or grpcs://");
    return compileGrpcTool(operation, call, name, validators, context);
  };
}

export function compileGrpcTool(
  operation: Operation,
  call: GrpcCall,
  name: string,
  validators: ValidatorCompiler,
  context: { registries: GrpcRegistries; maxStreamMessages: number },
): CatalogEntry {
  const codec = methodCodec(call, context.registries);
  const { tool, validateArguments, validateOutput } = bodyArgumentsTool(
    operation,
    name,
    validators,
    `gRPC ${call.service}/${call.method}`,
  );
  const path = `/${call.service}/${call.method}`;
  const streaming = call.streaming === "server";
  const maxMessages = context.maxStreamMessages;
  let encodedArgs: unknown;
  let encoded: Uint8Array | undefined;
  const encode = (args: Record<string, unknown>): Uint8Array => {
    if (args === encodedArgs && encoded) return encoded;
    return codec.encode(args);
  };
  const runtime: ToolRuntime = {
    tool,
    validate(args) {
      const value = (args ?? {}) as Record<string, unknown>;
      const violations = validateArguments(value);
      if (violations.length > 0) return violations;
      try {
        encoded = codec.encode(value);
        encodedArgs = args;
        return [];
      } catch (error) {
        encoded = undefined;
        return [`arguments: ${(error as Error).message}`];
      }
    },
    buildRequest: (args): BackendRequest => {
      const message = encode(args);
      encoded = undefined;
      encodedArgs = undefined;
      return { method: "POST", path, headers: {}, grpc: { streaming: call.streaming, message, maxMessages } };
    },
    toResult: (response, options) => {
      const result = grpcResult(response, codec, streaming, options);
      return validateOutput ? conformingResult(result, validateOutput) : result;
    },
    // Discovery mode's invoke_tool: the answer is still a gRPC message, only not held to this tool's schema.
    toUncheckedResult: (response, options) => grpcResult(response, codec, streaming, options),
  };
  return {
    runtime,
    searchText: operationSearchText(name, operation, call.service, call.method),
  };
}
