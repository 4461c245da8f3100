/**
 * A plan setting given as a file (`--tool-overrides FILE`): YAML or JSON (YAML reads both), read
 * before any request. The control plane judges the content and answers a located 422.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { cliErrors } from "../errors.ts";

/** The value a settings file holds; `flag` names the option in errors. */
export function readSettingsFile(path: string, flag: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw cliErrors.unreadableFile(
      path,
      code === "ENOENT" ? `no such file (${flag} takes a YAML or JSON file)` : String(code),
    );
  }
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
