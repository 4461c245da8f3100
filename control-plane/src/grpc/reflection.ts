/**
 * Reading a gRPC server's services through server reflection (grpc.reflection.v1, falling back to
 * v1alpha when the server does not implement v1), behind the same SSRF guard as URL downloads:
 * the host is resolved, every address checked, and the channel opened to the checked address
 * only (the host name stays the authority and the TLS server name). Bounded in time, bytes and
 * files. Messages name the URL but never echo what the server said.
 *
 * Over grpcs the server's certificate must chain to a CA the system trusts (Node's store, plus
 * NODE_EXTRA_CA_CERTS), as for https downloads; a failed handshake says which check failed.
 */

import { createSecureContext } from "node:tls";
import { tlsFailure, tlsHandshakeError } from "@atrium/contract/tls-failure";
import { grpcUrlProblem, maxProtoFiles } from "@atrium/crds";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { OpenApiImportError, tooLarge } from "../openapi/errors.ts";
import { checkedAddress, type FetchPolicy, fetchPolicyFromEnv } from "../openapi/fetch-document.ts";
import { reflectionFailed } from "./errors.ts";
import { wellKnownFiles } from "./well-known.ts";

export type ReflectedServices = { fileDescriptors: Uint8Array[]; services: string[] };

export type ReflectionOptions = { timeoutMs: number; maxBytes: number; policy?: FetchPolicy };

// The two versions' messages are the same on the wire; only the service's name differs.
const reflectionProto = `
syntax = "proto3";
message ServerReflectionRequest {
  string host = 1;
  oneof message_request {
    string file_by_filename = 3;
    string file_containing_symbol = 4;
    string list_services = 7;
  }
}
message ServerReflectionResponse {
  string valid_host = 1;
  ServerReflectionRequest original_request = 2;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
`;
const { root } = protobuf.parse(reflectionProto);
const Request = root.lookupType("ServerReflectionRequest");
const Response = root.lookupType("ServerReflectionResponse");

type ReflectionRequest = { fileByFilename?: string; fileContainingSymbol?: string; listServices?: string };
type ReflectionResponse = {
  fileDescriptorResponse?: { fileDescriptorProto?: Uint8Array[] };
  listServicesResponse?: { service?: { name?: string }[] };
  errorResponse?: { errorCode?: number };
};

const versions = ["v1", "v1alpha"] as const;

/** The most a failed grpcs connection's second handshake may take, to name its TLS failure. */
const TLS_CHECK_MS = 2_000;

/** The address of a `grpc://` / `grpcs://` URL, as the SSRF guard reads it (an http(s) URL of the same authority). */
function parseGrpcUrl(raw: string): { tls: boolean; authority: URL } {
  const problem = grpcUrlProblem(raw);
  if (problem)
    throw new OpenApiImportError("OPENAPI_URL_INVALID", `'${raw}' cannot be read through reflection: it ${problem}`);
  const tls = /^grpcs:/i.test(raw);
  return { tls, authority: new URL(raw.replace(/^grpcs?:/i, tls ? "https:" : "http:")) };
}

export async function readByReflection(rawUrl: string, options: ReflectionOptions): Promise<ReflectedServices> {
  const { tls, authority } = parseGrpcUrl(rawUrl);
  const shown = `${tls ? "grpcs" : "grpc"}://${authority.host}`;
  const address = await checkedAddress(authority, options.policy ?? fetchPolicyFromEnv(), shown);
  const port = authority.port === "" ? (tls ? 443 : 80) : Number(authority.port);
  const target = address.family === 6 ? `ipv6:[${address.address}]:${port}` : `ipv4:${address.address}:${port}`;
  // Node's CA store, as for https downloads: grpc-js's createSsl would read GRPC_DEFAULT_SSL_ROOTS_FILE_PATH instead when set.
  const credentials = tls
    ? grpc.credentials.createFromSecureContext(createSecureContext())
    : grpc.credentials.createInsecure();
  const client = new grpc.Client(target, credentials, {
    "grpc.default_authority": authority.host,
    ...(tls ? { "grpc.ssl_target_name_override": authority.hostname } : {}),
    "grpc.max_receive_message_length": options.maxBytes,
    "grpc.enable_retries": 0,
  });
  const deadline = Date.now() + options.timeoutMs;
  try {
    for (const version of versions) {
      try {
        return await readServices(client, version, { deadline, maxBytes: options.maxBytes, shown });
      } catch (error) {
        if (version === "v1" && (error as { code?: unknown }).code === grpc.status.UNIMPLEMENTED) continue;
        if (tls && (error as { code?: unknown }).code === grpc.status.UNAVAILABLE) {
          // grpc-js keeps only the failure's message: one handshake on the checked address tells which check failed.
          const name = authority.hostname.replace(/^\[(.*)\]$/, "$1");
          const failed = await tlsHandshakeError({
            host: address.address,
            port,
            name,
            timeoutMs: Math.min(deadline - Date.now(), TLS_CHECK_MS),
          });
          const words = failed && tlsFailure(failed, name, { peer: "server", truster: "the control plane" });
          if (words) throw reflectionFailed(shown, words, error);
        }
        throw asImportError(error, shown, options.timeoutMs);
      }
    }
    throw reflectionFailed(shown, "the server implements neither grpc.reflection.v1 nor v1alpha");
  } finally {
    client.close();
  }
}

function asImportError(error: unknown, shown: string, timeoutMs: number): OpenApiImportError {
  if (error instanceof OpenApiImportError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === grpc.status.DEADLINE_EXCEEDED)
    return reflectionFailed(shown, `no complete answer within ${timeoutMs} ms`, error);
  if (code === grpc.status.UNAVAILABLE)
    return reflectionFailed(shown, "the server is unreachable (UNAVAILABLE)", error);
  if (code === grpc.status.UNIMPLEMENTED)
    return reflectionFailed(
      shown,
      "the server implements neither grpc.reflection.v1 nor v1alpha (UNIMPLEMENTED)",
      error,
    );
  const name = typeof code === "number" ? grpc.status[code] : undefined;
  return reflectionFailed(shown, `the reflection call failed${name ? ` (${name})` : ""}`, error);
}

/** One reflection stream: the services listed, then the files defining them and every file they import. */
async function readServices(
  client: grpc.Client,
  version: (typeof versions)[number],
  { deadline, maxBytes, shown }: { deadline: number; maxBytes: number; shown: string },
): Promise<ReflectedServices> {
  const stream = client.makeBidiStreamRequest(
    `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`,
    (request: ReflectionRequest) => Buffer.from(Request.encode(Request.fromObject(request)).finish()),
    (bytes: Buffer) => Response.toObject(Response.decode(bytes), { defaults: false }) as ReflectionResponse,
    new grpc.Metadata(),
    { deadline },
  );
  const ask = conversation(stream);
  try {
    const listed = await ask({ listServices: "*" });
    const services = (listed.listServicesResponse?.service ?? [])
      .map((service) => service.name ?? "")
      .filter((name) => name !== "" && !name.startsWith("grpc.reflection."));
    const files = new Map<string, Uint8Array>();
    let bytes = 0;
    const keep = (response: ReflectionResponse, asked: string) => {
      if (response.errorResponse)
        throw reflectionFailed(shown, `it has no file for ${asked} (error ${response.errorResponse.errorCode ?? 0})`);
      for (const file of response.fileDescriptorResponse?.fileDescriptorProto ?? []) {
        bytes += file.length;
        if (bytes > maxBytes) throw tooLarge("The descriptors the reflection server sent", maxBytes);
        const name = fromBinary(FileDescriptorProtoSchema, file).name;
        if (!files.has(name)) files.set(name, file);
        if (files.size > maxProtoFiles) throw reflectionFailed(shown, `it sent more than ${maxProtoFiles} files`);
      }
    };
    for (const service of services) keep(await ask({ fileContainingSymbol: service }), `the service ${service}`);
    for (;;) {
      const missing = [...files.values()]
        .flatMap((file) => fromBinary(FileDescriptorProtoSchema, file).dependency)
        .find((name) => !files.has(name) && !wellKnownFiles.has(name));
      if (missing === undefined) break;
      keep(await ask({ fileByFilename: missing }), missing);
    }
    return { fileDescriptors: [...files.values()], services };
  } finally {
    stream.end();
    stream.cancel();
  }
}

/** Each request's answer, in order (a reflection server answers every request once, in turn). */
function conversation(
  stream: grpc.ClientDuplexStream<ReflectionRequest, ReflectionResponse>,
): (request: ReflectionRequest) => Promise<ReflectionResponse> {
  const waiting: { resolve: (response: ReflectionResponse) => void; reject: (error: unknown) => void }[] = [];
  let failure: unknown;
  stream.on("data", (response: ReflectionResponse) => waiting.shift()?.resolve(response));
  stream.on("error", (error) => {
    failure = error;
    for (const pending of waiting.splice(0)) pending.reject(error);
  });
  stream.on("end", () => {
    failure ??= new Error("the server ended the reflection stream");
    for (const pending of waiting.splice(0)) pending.reject(failure);
  });
  return (request) =>
    new Promise((resolve, reject) => {
      if (failure !== undefined) return reject(failure);
      waiting.push({ resolve, reject });
      stream.write(request);
    });
}
