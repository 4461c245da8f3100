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

/** A number > 0, decimals allowed (a rate of 0.5 per second). */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError("give a number above 0, e.g. 10 or 0.5.");
  }
  return number;
}

/** One tool's limits as `--tool-limit` takes them. */
export interface ToolLimitFlag {
  requestsPerSecond?: number;
  burst?: number;
  concurrentCalls?: number;
}

const TOOL_LIMIT_KEYS = { rate: "requestsPerSecond", burst: "burst", concurrent: "concurrentCalls" } as const;

/** Repeatable `--tool-limit tool=rate=2,burst=4,concurrent=1`, collected into tool → limits. */
export function toolLimitPair(
  value: string,
  previous: Record<string, ToolLimitFlag> = {},
): Record<string, ToolLimitFlag> {
  const usage = "give it as tool=rate=<per second>,burst=<n>,concurrent=<n> (any of the three), e.g. createPet=rate=2.";
  const at = value.indexOf("=");
  const tool = value.slice(0, at).trim();
  if (at < 1 || !tool) throw new InvalidArgumentError(usage);
  const limits: ToolLimitFlag = {};
  for (const part of value.slice(at + 1).split(",")) {
    const [key = "", amount = "", ...extra] = part.split("=").map((item) => item.trim());
    const field = (TOOL_LIMIT_KEYS as Record<string, keyof ToolLimitFlag>)[key];
    if (!field || extra.length > 0) throw new InvalidArgumentError(usage);
    limits[field] = field === "requestsPerSecond" ? positiveNumber(amount) : positiveInteger(amount);
  }
  return { ...previous, [tool]: limits };
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
