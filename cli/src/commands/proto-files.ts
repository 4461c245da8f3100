/**
 * The .proto files an import needs, gathered like protoc does with `-I`: each named file, and each
 * file it imports (transitively), found under the first `--proto-path` directory that has it, and
 * uploaded with its path relative to that directory (the name its import statements use).
 * Google's well-known types (google/protobuf/*.proto) are bundled by the control plane: never
 * uploaded. Without `--proto-path`, the current directory is the import root, as for protoc.
 */
import { existsSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { maxProtoFiles } from "@atrium/crds";
import { cliErrors } from "../errors.ts";
import { readTextFile } from "./settings-file.ts";

export type ProtoFile = { path: string; content: string };

/** The `import "x.proto";` statements of a .proto file's text, comments left out. */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  return [...code.matchAll(/(?:^|[;\s])import\s+(?:public\s+|weak\s+)?["']([^"']+)["']\s*;/g)].map(
    (match) => match[1] as string,
  );
}

/** `file`'s path relative to the first root holding it; its own name when none does. */
function importPath(file: string, roots: readonly string[]): string {
  const absolute = resolve(file);
  for (const root of roots) {
    const inside = relative(resolve(root), absolute);
    if (inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) {
      return inside.split(sep).join("/");
    }
  }
  return basename(absolute);
}

export function collectProtoFiles(files: readonly string[], protoPaths: readonly string[]): ProtoFile[] {
  const roots = protoPaths.length > 0 ? protoPaths : ["."];
  const collected = new Map<string, ProtoFile>();
  const pending: { path: string; content: string }[] = files.map((file) => ({
    path: importPath(file, roots),
    content: readTextFile(file),
  }));
  for (let next = pending.shift(); next; next = pending.shift()) {
    if (collected.has(next.path)) continue;
    collected.set(next.path, next);
    if (collected.size > maxProtoFiles)
      throw cliErrors.usage(`the import needs more than ${maxProtoFiles} .proto files: split it into several Services`);
    for (const imported of importsOf(next.content)) {
      if (imported.startsWith("google/protobuf/") || collected.has(imported)) continue;
      const root = roots.find((dir) => existsSync(resolve(dir, imported)));
      if (root === undefined)
        throw cliErrors.usage(
          `${next.path} imports "${imported}", which is in none of the import roots (${roots.join(", ")}): add the directory it is relative to with --proto-path`,
        );
      pending.push({ path: imported, content: readTextFile(resolve(root, imported)) });
    }
  }
  return [...collected.values()];
}
