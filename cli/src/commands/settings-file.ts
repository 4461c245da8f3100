/**
 * Files the CLI reads before any request: any text file, with the error that says why it could
 * not be read, and a plan setting given as a file (`--tool-overrides FILE`): YAML or JSON (YAML
 * reads both). The control plane judges the content and answers a located 422.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { cliErrors } from "../errors.ts";

/** A file's text; an unreadable file is a CLI error saying why, `whenMissing` when it does not exist. */
export function readTextFile(path: string, whenMissing = "no such file"): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw cliErrors.unreadableFile(path, code === "ENOENT" ? whenMissing : String(code));
  }
}

/** The value a settings file holds; `flag` names the option in errors. */
export function readSettingsFile(path: string, flag: string): unknown {
  const text = readTextFile(path, `no such file (${flag} takes a YAML or JSON file)`);
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw cliErrors.usage(`${flag} ${path}: not YAML or JSON (${(error as Error).message.split("\n")[0]})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw cliErrors.usage(`${flag} ${path}: must hold a map of tool names (YAML or a JSON object)`);
  return value;
}
