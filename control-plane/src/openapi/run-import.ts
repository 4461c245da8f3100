/**
 * Runs imports in worker threads, under a time budget and a heap limit, so that no document can
 * stall the event loop (health checks, other organizations' requests) or exhaust the process's
 * memory. At most `maxConcurrentImports` workers exist; more imports wait their turn. A worker
 * is kept for the next import (loading the parser costs more than most imports), and replaced
 * when it overran its budget or died.
 */
import { Worker } from "node:worker_threads";
import type { ServiceKind } from "@atrium/crds";
import type { GrpcSource } from "../grpc/import.ts";
import {
  importOutOfMemory,
  importTimedOut,
  OpenApiImportError,
  type OpenApiImportErrorCode,
  tooDeep,
} from "./errors.ts";
import type { ImportedDocument } from "./imported-document.ts";
import { idleWorkerMs, importHeapMb, maxConcurrentImports, maxDocumentDepth } from "./limits.ts";

/**
 * `kind` graphql: a GraphQL schema (graphql/import.ts); otherwise an OpenAPI document.
 * `introspected`: the text is an endpoint's answer to the introspection query.
 * `grpc`: .proto files or reflected descriptors (grpc/import.ts), `text` then unused.
 */
export type ImportJob = {
  text: string;
  documentUrl?: string;
  kind?: ServiceKind;
  introspected?: boolean;
  grpc?: GrpcSource;
};

/** What the worker posts back: the document, or a coded import error (any other failure is a bug). */
export type ImportOutcome =
  | { ok: true; document: ImportedDocument }
  | { ok: false; error: { code: OpenApiImportErrorCode; message: string; location?: OpenApiImportError["location"] } }
  | { ok: false; stackOverflow: true }
  | { ok: false; failure: string };

const workerUrl = new URL("./import-worker.ts", import.meta.url);

const idle: Worker[] = [];
const idleTimers = new WeakMap<Worker, NodeJS.Timeout>();
let live = 0;
const waiting: Array<() => void> = [];

export async function runImportInWorker(job: ImportJob, budgetMs: number): Promise<ImportedDocument> {
  const worker = await acquire();
  let reusable = false;
  try {
    const outcome = await runOn(worker, job, budgetMs);
    reusable = true; // a refused document is an answer, not a failure: the worker stays usable
    if (outcome.ok) return outcome.document;
    if ("error" in outcome) {
      const { code, message, location } = outcome.error;
      throw new OpenApiImportError(code, message, location);
    }
    if ("stackOverflow" in outcome) throw tooDeep(maxDocumentDepth, undefined);
    throw new Error(`OpenAPI import failed: ${outcome.failure}`);
  } finally {
    if (reusable) {
      worker.unref(); // an idle worker never keeps the process alive
      idle.push(worker);
      retireWhenIdle(worker);
    } else {
      live--;
      void worker.terminate();
    }
    waiting.shift()?.();
  }
}

/** Stops a worker left idle for `idleWorkerMs`: imports are rare, the parser's memory is not small. */
function retireWhenIdle(worker: Worker): void {
  const timer = setTimeout(() => {
    if (dropIdle(worker)) void worker.terminate();
  }, idleWorkerMs);
  timer.unref();
  idleTimers.set(worker, timer);
}

/** Takes an idle worker out of the pool; false when it is not idle (taken meanwhile, or already gone). */
function dropIdle(worker: Worker): boolean {
  const index = idle.indexOf(worker);
  if (index < 0) return false;
  idle.splice(index, 1);
  live--;
  waiting.shift()?.();
  return true;
}

async function acquire(): Promise<Worker> {
  for (;;) {
    const worker = idle.pop();
    if (worker) {
      clearTimeout(idleTimers.get(worker));
      worker.ref();
      return worker;
    }
    if (live < maxConcurrentImports) {
      live++;
      return spawn();
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function spawn(): Worker {
  // The worker silences its own output (import-worker.ts): piping it here instead would keep
  // the process alive after the worker is unref'd.
  const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: importHeapMb } });
  // An idle worker that dies on its own is forgotten, not handed the next import.
  worker.once("exit", () => dropIdle(worker));
  return worker;
}

/** One job on one worker; rejects (and the worker is then discarded) on overrun, crash or exit. */
function runOn(worker: Worker, job: ImportJob, budgetMs: number): Promise<ImportOutcome> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const fail = (error: Error) => {
      done();
      reject(error);
    };
    const onMessage = (outcome: ImportOutcome) => {
      done();
      resolve(outcome);
    };
    const onError = (error: Error & { code?: string }) =>
      fail(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? importOutOfMemory() : error);
    const onExit = (code: number) => fail(new Error(`the OpenAPI import worker exited with code ${code}`));
    const timer = setTimeout(() => fail(importTimedOut(budgetMs)), budgetMs);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(job);
  });
}
