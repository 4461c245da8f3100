/**
 * The package boundaries the contract exists for, read from what npm would install: the gateway's
 * production dependencies (`npm ls --omit=dev`) reach no control plane and no database code, so its
 * image carries none; the contract itself needs nothing beyond the CRD schemas and Zod. The same
 * computation over the control plane finds its database packages, so the check can see them.
 *
 * And the other half, which an image built with `--omit=dev` depends on: every package a
 * component's code imports at run time (followed from its exports, tests and `…/testing` aside)
 * is one of its production dependencies. Relative imports into another package's `src/` are
 * refused by Biome (`noRestrictedImports` in biome.json, run by `npm run lint`); the last test
 * proves that rule catches one.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DATABASE_CODE = ["@atrium/control-plane", "pg", "@electric-sql/pglite", "drizzle-orm"];

interface NpmTree {
  dependencies?: Record<string, NpmTree>;
}

/** Every package name in the production dependency closure of one workspace. */
async function productionClosure(workspace: string): Promise<Set<string>> {
  const args = ["ls", "--omit=dev", "--all", "--json", "-w", workspace];
  // npm ls exits non-zero on tree problems it still prints (extraneous packages): the JSON is what counts.
  const stdout = await promisify(execFile)("npm", args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string; message: string }) => {
      if (!failed.stdout) throw new Error(`npm ${args.join(" ")} failed: ${failed.message}`);
      return failed.stdout;
    },
  );
  const tree = JSON.parse(stdout) as NpmTree;
  const root = tree.dependencies?.[workspace];
  if (!root) throw new Error(`npm ls did not list ${workspace}: is it a workspace of ${ROOT}?`);
  const names = new Set<string>();
  const walk = (node: NpmTree) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      if (names.has(name)) continue;
      names.add(name);
      walk(child);
    }
  };
  walk(root);
  return names;
}

/** `import … from "x"`, `export … from "x"`, `import("x")`, `import "x"`; group 1 marks `import type`. */
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)(\s+type)?\s[^;"']*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

/** The packages a workspace's exported modules import at run time, following its relative imports. */
function runtimeImports(workspace: string): Set<string> {
  const folder = resolve(ROOT, workspace);
  const manifest = JSON.parse(readFileSync(resolve(folder, "package.json"), "utf8")) as {
    exports: Record<string, string>;
  };
  const queue = Object.entries(manifest.exports)
    .filter(([subpath]) => !subpath.endsWith("/testing")) // test support may use dev dependencies
    .map(([, file]) => resolve(folder, file));
  const seen = new Set<string>();
  const packages = new Set<string>();
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (match[1]) continue; // erased when types are stripped
      const specifier = match[2] ?? match[3] ?? match[4] ?? "";
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
        const parts = specifier.split("/");
        packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier));
      }
    }
  }
  return packages;
}

/** What ships: the components (one image each, and the CLI) and the workspaces they depend on. */
const COMPONENTS = ["control-plane", "gateway", "operator", "webhook", "cli"];

/** The components' folders and those of the `@atrium/*` packages in their production dependencies. */
function shippedPackages(): string[] {
  const root = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { workspaces: string[] };
  const folderOf = new Map<string, string>();
  for (const workspace of root.workspaces) {
    const manifest = JSON.parse(readFileSync(resolve(ROOT, workspace, "package.json"), "utf8")) as { name: string };
    folderOf.set(manifest.name, workspace);
  }
  const shipped = new Set<string>();
  const visit = (folder: string) => {
    if (shipped.has(folder)) return;
    shipped.add(folder);
    for (const name of productionDependencies(folder)) {
      const dependency = folderOf.get(name);
      if (dependency) visit(dependency);
    }
  };
  for (const component of COMPONENTS) visit(component);
  return [...shipped].sort();
}

function productionDependencies(workspace: string): string[] {
  const manifest = JSON.parse(readFileSync(resolve(ROOT, workspace, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(manifest.dependencies ?? {});
}

describe("package boundaries", () => {
  it("the gateway's production dependencies hold the contract and no database code", async () => {
    const closure = await productionClosure("@atrium/gateway");
    expect(closure).toContain("@atrium/contract");
    expect(DATABASE_CODE.filter((name) => closure.has(name))).toEqual([]);
  });

  it("the control plane's production dependencies hold the database code (the check sees it)", async () => {
    const closure = await productionClosure("@atrium/control-plane");
    expect(DATABASE_CODE.filter((name) => closure.has(name))).toEqual(DATABASE_CODE.slice(1));
  });

  it("the contract needs only the CRD schemas, Zod, undici (its REST client) and the OpenTelemetry API", async () => {
    const closure = await productionClosure("@atrium/contract");
    const crds = await productionClosure("@atrium/crds");
    // The API and core's W3C propagators (with the conventions core needs): the servers bring the SDK (telemetry.ts).
    const telemetry = ["@opentelemetry/api", "@opentelemetry/core", "@opentelemetry/semantic-conventions"];
    expect([...closure].sort()).toEqual([...new Set(["@atrium/crds", "undici", "zod", ...telemetry, ...crds])].sort());
  });

  it.each(shippedPackages())("%s imports at run time only its production dependencies", (workspace) => {
    const imported = runtimeImports(workspace);
    const declared = productionDependencies(workspace);
    expect([...imported].filter((name) => !declared.includes(name))).toEqual([]);
  });

  it("the import scan covers the components and the packages they ship with", () => {
    const expected = ["cli", "contract", "control-plane", "crds", "gateway", "operator", "webhook"];
    expect(shippedPackages()).toEqual(expect.arrayContaining(expected));
  });

  it("the import scan sees the gateway's imports", () => {
    const imported = runtimeImports("gateway");
    for (const name of ["@atrium/contract", "fastify", "undici", "jose", "ajv", "pino"])
      expect(imported).toContain(name);
    expect(imported).not.toContain("vitest");
  });

  it("Biome refuses a relative import into another package's src/ and lets an in-package one pass", async () => {
    const sandbox = mkdtempSync(join(tmpdir(), "atrium-boundary-lint-"));
    try {
      // The repository's own configuration, outside git (Biome lints only files under its root).
      const config = JSON.parse(readFileSync(resolve(ROOT, "biome.json"), "utf8")) as Record<string, unknown>;
      delete config.$schema;
      writeFileSync(join(sandbox, "biome.json"), JSON.stringify({ ...config, vcs: { enabled: false } }));
      mkdirSync(join(sandbox, "cli", "src"), { recursive: true });
      writeFileSync(
        join(sandbox, "cli/src/reach.ts"),
        'import { x } from "../../gateway/src/testing.ts";\nexport const y = x;\n',
      );
      writeFileSync(join(sandbox, "cli/src/local.ts"), 'import { x } from "./config.ts";\nexport const y = x;\n');
      const biome = resolve(ROOT, "node_modules/.bin/biome");
      const stdout = await promisify(execFile)(biome, ["lint", "--reporter=json", "."], { cwd: sandbox }).then(
        () => "",
        (failed: { stdout?: string }) => failed.stdout ?? "",
      );
      const report = JSON.parse(stdout) as { diagnostics: { category: string; location: { path: unknown } }[] };
      const findings = report.diagnostics.map((found) => `${found.category} ${JSON.stringify(found.location.path)}`);
      expect(findings).toEqual([expect.stringMatching(/^lint\/style\/noRestrictedImports .*cli\/src\/reach\.ts/)]);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
