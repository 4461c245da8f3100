/**
 * The import worker: imports each text it is sent (see run-import.ts) and posts the outcome back.
 * A coded import error goes back as it is; a stack overflow (a nesting the depth checks did not
 * foresee) as such; anything else only by its message, never with a stack (paths of the server).
 */
import { parentPort } from "node:worker_threads";
import { importGraphqlText } from "../graphql/import.ts";
import { importGrpc } from "../grpc/import.ts";
import { OpenApiImportError } from "./errors.ts";
import { importText } from "./import.ts";
import type { ImportJob, ImportOutcome } from "./run-import.ts";

async function outcomeOf(job: ImportJob): Promise<ImportOutcome> {
  try {
    if (job.grpc) return { ok: true, document: importGrpc(job.grpc) };
    const document =
      job.kind === "graphql"
        ? importGraphqlText(job.text, job.introspected)
        : await importText(job.text, job.documentUrl);
    return { ok: true, document };
  } catch (error) {
    if (error instanceof OpenApiImportError) {
      const location = error.location ? { location: error.location } : {};
      return { ok: false, error: { code: error.code, message: error.message, ...location } };
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) return { ok: false, stackOverflow: true };
    return { ok: false, failure: error instanceof Error ? error.message : String(error) };
  }
}

// What a parser prints is not the request's business: it never reaches the control plane's log.
for (const stream of [process.stdout, process.stderr]) stream.write = () => true;

parentPort?.on("message", (job: ImportJob) => {
  void outcomeOf(job).then((outcome) => parentPort?.postMessage(outcome));
});
