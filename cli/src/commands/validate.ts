/**
 * `atrium validate <files...>`: checks atrium.dev custom resources (YAML or JSON, several
 * documents per file) on this machine, before `kubectl apply`, with the rules the API server, the
 * admission webhook and the REST API apply: the same field paths and messages (@atrium/crds'
 * `validateResource`). Nothing is sent anywhere; references to other resources are not looked up.
 */
import { readFileSync } from "node:fs";
import { API_GROUP, type Violation, validateResource } from "@atrium/crds";
import type { Command } from "commander";
import { parseAllDocuments } from "yaml";
import type { CliContext } from "../context.ts";
import { cliErrors } from "../errors.ts";
import { readStdin } from "../input.ts";
import { withExample } from "./options.ts";

/** The verdict on one document of a file. */
export interface DocumentVerdict {
  file: string;
  /** 0-based position of the document in its file. */
  document: number;
  kind: string;
  name: string;
  valid: boolean;
  /** Not an atrium.dev resource (a Secret, a Deployment...): left to the API server. */
  skipped: boolean;
  violations: Violation[];
  warnings: string[];
}

/** The kind and name a document claims, for people to find it by; empty when it has none. */
function identity(object: unknown): { kind: string; name: string } {
  const { kind, metadata } = (object ?? {}) as { kind?: unknown; metadata?: { name?: unknown } };
  const name = metadata?.name;
  return { kind: typeof kind === "string" ? kind : "", name: typeof name === "string" ? name : "" };
}

/** Every document of `text` (YAML, hence JSON too), judged. */
export function validateText(file: string, text: string): DocumentVerdict[] {
  return parseAllDocuments(text)
    .map((document, index) => ({ document, index }))
    .filter(({ document }) => document.contents !== null)
    .map(({ document, index }) => {
      const base = { file, document: index };
      if (document.errors.length > 0) {
        const message = `not YAML or JSON: ${document.errors[0]?.message.split("\n")[0]}`;
        const violations = [{ field: "<root>", message }];
        return { ...base, kind: "", name: "", valid: false, skipped: false, violations, warnings: [] };
      }
      const object = document.toJS();
      const named = { ...base, ...identity(object) };
      const apiVersion = (object as { apiVersion?: unknown })?.apiVersion;
      if (typeof apiVersion === "string" && !apiVersion.startsWith(`${API_GROUP}/`)) {
        return { ...named, valid: true, skipped: true, violations: [], warnings: [] };
      }
      const verdict = validateResource(object);
      return {
        ...named,
        valid: verdict.allowed,
        skipped: false,
        violations: verdict.allowed ? [] : verdict.violations,
        warnings: verdict.allowed ? (verdict.warnings ?? []) : [],
      };
    });
}

export function registerValidateCommand(program: Command, context: CliContext): void {
  const validate = program
    .command("validate")
    .description(
      "check atrium.dev custom resources (YAML or JSON files, '-' for stdin) with the rules the cluster applies",
    )
    .argument("<files...>", "manifest files; each may hold several documents")
    .action(async (files: string[], _options: unknown, command: Command) => {
      const verdicts: DocumentVerdict[] = [];
      for (const file of files) {
        let text: string;
        try {
          text = file === "-" ? await readStdin(context.io.stdin) : readFileSync(file, "utf8");
        } catch (error) {
          throw cliErrors.unreadableFile(file, (error as Error).message);
        }
        verdicts.push(...validateText(file, text));
      }
      context.print(command, verdicts, {
        columns: [
          { header: "FILE", value: (v) => (v.document > 0 ? `${v.file}#${v.document}` : v.file) },
          { header: "KIND", value: (v) => v.kind },
          { header: "NAME", value: (v) => v.name },
          {
            header: "RESULT",
            value: (v) =>
              v.skipped
                ? "skipped: not an atrium.dev resource"
                : v.valid
                  ? ["valid", ...v.warnings.map((w) => `(warning: ${w})`)].join(" ")
                  : v.violations.map(({ field, message }) => `${field}: ${message}`).join("; "),
          },
        ],
        empty: "No documents.",
      });
      const invalid = verdicts.filter((verdict) => !verdict.valid).length;
      if (invalid > 0) throw cliErrors.invalidResources(invalid, verdicts.length);
    });
  withExample(validate, "atrium validate petstore.yaml", "kubectl kustomize overlays/prod | atrium validate -");
}
