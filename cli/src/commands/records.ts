/**
 * The `list`, `get` and `delete` subcommands every record command has, written once: each
 * reads its answer with the contract's view, prints it as a table or as the data (`--output`),
 * and takes the record's id as an argument.
 */
import { listOf } from "@atrium/contract/rest";
import type { Command } from "commander";
import type { z } from "zod";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { withExample } from "./options.ts";

/** The id argument: its name in help, what it is, and how a value is read (a whole number for gateway groups). */
export interface IdArgument {
  name: string;
  description: string;
  parse?: (value: string) => string | number;
}

interface Described {
  description: string;
  examples: string[];
}

/** `<parent> list`: every record of `path`, one row each. */
export function listCommand<S extends z.ZodType>(
  parent: Command,
  context: CliContext,
  options: Described & { path: string; view: S; columns: Column<z.output<S>>[]; empty: string },
): Command {
  const list = parent
    .command("list")
    .description(options.description)
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      const { items } = await api.get(options.path, listOf(options.view));
      context.print(command, items, { columns: options.columns, empty: options.empty });
    });
  return withExample(list, ...options.examples);
}

/** `<parent> get <id>`: one record, as rows (which may depend on the record). */
export function getCommand<S extends z.ZodType>(
  parent: Command,
  context: CliContext,
  options: Described & {
    path: string;
    view: S;
    id: IdArgument;
    rows?: Column<z.output<S>>[] | ((record: z.output<S>) => Column<z.output<S>>[]);
  },
): Command {
  const get = parent
    .command("get")
    .description(options.description)
    .argument(`<${options.id.name}>`, options.id.description, options.id.parse)
    .action(async (id: string | number, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      const record = await api.get(`${options.path}/${segment(id)}`, options.view);
      const rows = typeof options.rows === "function" ? options.rows(record) : options.rows;
      context.print(command, record, rows ? { columns: rows } : {});
    });
  return withExample(get, ...options.examples);
}

/** `<parent> delete <id>`: prints `{ id, deleted: true }`, or in table mode the sentence `done(id)`. */
export function deleteCommand(
  parent: Command,
  context: CliContext,
  options: Described & { path: string; id: IdArgument; done: (id: string | number) => string },
): Command {
  const remove = parent
    .command("delete")
    .description(options.description)
    .argument(`<${options.id.name}>`, options.id.description, options.id.parse)
    .action(async (id: string | number, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      await api.delete(`${options.path}/${segment(id)}`);
      context.print(command, { id, deleted: true }, { message: options.done(id) });
    });
  return withExample(remove, ...options.examples);
}
