/**
 * Test support: runs the real helm binary (built by hack/kube/build.sh) on the charts, with its
 * cache and configuration in a temp dir, and parses what it renders.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kubeBinaries } from "@atrium/kube-testenv";
import { parseAllDocuments } from "yaml";
import { chartsDir } from "./generated-files.ts";

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A Kubernetes object as rendered (loosely typed: tests reach into it by path). */
// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are arbitrary YAML.
export type Manifest = Record<string, any>;

export const chartPath = (name: string) => join(chartsDir, name);
export const testValuesPath = (name: string) => join(chartsDir, "src/test-values", `${name}.yaml`);

/** A helm runner whose caches and repositories live in a temp dir; `dispose` removes it. */
export function helmRunner(): { helm: (args: string[]) => HelmResult; dispose: () => void } {
  const home = mkdtempSync(join(tmpdir(), "atrium-helm-"));
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(home, "cache"),
    HELM_CONFIG_HOME: join(home, "config"),
    HELM_DATA_HOME: join(home, "data"),
  };
  const bin = kubeBinaries().helm;
  return {
    helm(args) {
      const result = spawnSync(bin, args, { env, encoding: "utf8", timeout: 120_000 });
      if (result.error) throw result.error;
      return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    },
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** The objects of a multi-document YAML stream, empty documents left out. */
export function manifests(yamlText: string): Manifest[] {
  return parseAllDocuments(yamlText)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0]?.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((doc): doc is Manifest => doc !== null && typeof doc === "object");
}

export function find(objects: Manifest[], kind: string, name?: string): Manifest {
  const found = objects.find((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (!found) {
    const present = objects.map((o) => `${o.kind}/${o.metadata?.name}`).join(", ");
    throw new Error(`no ${kind}${name ? ` named ${name}` : ""} among: ${present}`);
  }
  return found;
}

/** name → value (or valueFrom) of a container's env. */
export function envOf(container: Manifest): Record<string, unknown> {
  return Object.fromEntries(
    (container.env as Manifest[]).map((entry) => [entry.name, entry.value ?? entry.valueFrom] as const),
  );
}
