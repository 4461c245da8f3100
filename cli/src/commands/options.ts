/**
 * Pieces the command modules share: help examples and parsers for option values. A parser
 * throws commander's InvalidArgumentError, so a bad value is a usage error (exit code 2).
 */
import { type Command, InvalidArgumentError } from "commander";

/** Help text after the options: one or more example invocations. */
export function withExample(command: Command, ...examples: string[]): Command {
  return command.addHelpText(
    "after",
    `\nExample${examples.length > 1 ? "s" : ""}:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`,
  );
}

/** A command group `name` under `parent` (its subcommands are added to it), described, with example invocations. */
export function commandGroup(parent: Command, name: string, description: string, ...examples: string[]): Command {
  return withExample(parent.command(name).description(description), ...examples);
}

/** A whole number ≥ 1. */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < 1) {
    throw new InvalidArgumentError("give a whole number of 1 or more.");
  }
  return number;
}

/** Repeatable `--label key=value`, collected into a map. */
export function labelPair(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf("=");
  if (at < 1) throw new InvalidArgumentError("give it as key=value, e.g. env=prod.");
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** Variadic lists that also accept commas: `--include a b` and `--include a,b` mean the same. */
export function commaList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}

/** Scopes given as `a b`, `a,b` or repeated flags, in order, without duplicates. */
export function scopeList(value: string, previous: string[] = []): string[] {
  return [...new Set([...previous, ...value.split(/[\s,]+/).filter(Boolean)])];
}

/** Repeatable `--oauth-tool-scope tool=scope1,scope2`, collected into tool → scopes. */
export function toolScopePair(value: string, previous: Record<string, string[]> = {}): Record<string, string[]> {
  const at = value.indexOf("=");
  const tool = value.slice(0, at).trim();
  const scopes = at < 0 ? [] : scopeList(value.slice(at + 1));
  if (!tool || scopes.length === 0) {
    throw new InvalidArgumentError("give it as tool=scope1,scope2, e.g. deletePet=pets:write.");
  }
  return { ...previous, [tool]: scopeList(scopes.join(","), previous[tool]) };
}
