/** The files the metric catalogue is written to, and what they hold now in the code. */
import { resolve } from "node:path";
import { catalogueJson, catalogueMarkdown, metricCatalogue } from "./catalogue.ts";

const docs = resolve(import.meta.dirname, "../../../docs");

/** Absolute path → content, as the code has it now. */
export async function catalogueFiles(): Promise<Map<string, string>> {
  const catalogue = await metricCatalogue();
  return new Map([
    [resolve(docs, "metrics.md"), catalogueMarkdown(catalogue)],
    [resolve(docs, "metrics.json"), catalogueJson(catalogue)],
  ]);
}
