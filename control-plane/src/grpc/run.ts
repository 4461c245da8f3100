/**
 * The gRPC import as the REST API runs it: uploaded .proto files (or one inline file) go to the
 * import worker under the same limits as any document; a `grpc://` / `grpcs://` URL is read
 * through server reflection here (behind the SSRF guard), and its descriptors go to the worker.
 */

import { tooLarge } from "../openapi/errors.ts";
import { defaultFetchTimeoutMs, type ImportOptions } from "../openapi/import.ts";
import type { ImportedDocument } from "../openapi/imported-document.ts";
import { defaultImportBudgetMs, defaultMaxBytes } from "../openapi/limits.ts";
import { runImportInWorker } from "../openapi/run-import.ts";
import type { ProtoUpload } from "./parse-protos.ts";
import { readByReflection } from "./reflection.ts";

export type GrpcImportSource = { text: string } | { url: string } | { protoFiles: ProtoUpload[] };

/** The name an inline .proto file (sent as text, not as protoFiles) is known by in messages. */
export const inlineProtoPath = "inline.proto";

export async function importGrpcService(
  source: GrpcImportSource,
  options: ImportOptions = {},
): Promise<ImportedDocument> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const budgetMs = options.budgetMs ?? defaultImportBudgetMs;
  if ("url" in source) {
    const reflected = await readByReflection(source.url, {
      timeoutMs: options.fetchTimeoutMs ?? defaultFetchTimeoutMs,
      maxBytes,
      ...(options.fetchPolicy ? { policy: options.fetchPolicy } : {}),
    });
    return runImportInWorker({ text: "", kind: "grpc", grpc: reflected }, budgetMs);
  }
  const protoFiles = "text" in source ? [{ path: inlineProtoPath, content: source.text }] : source.protoFiles;
  const bytes = protoFiles.reduce((sum, file) => sum + Buffer.byteLength(file.content, "utf8"), 0);
  if (bytes > maxBytes) throw tooLarge("The .proto files", maxBytes);
  return runImportInWorker({ text: "", kind: "grpc", grpc: { protoFiles } }, budgetMs);
}
