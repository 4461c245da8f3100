/**
 * The `atrium` program: global options, the command modules, and how every outcome becomes an
 * exit code. Errors end as one line on stderr that says what to fix, never a stack trace:
 * 0 success, 1 failure, 2 usage error (commander's: a missing flag, a bad value), 3 not logged in.
 */
import { Command, CommanderError } from "commander";
import { registerApiTokenCommands } from "./commands/api-token.ts";
import { registerConfigurationPlanCommands } from "./commands/configuration-plan.ts";
import { registerExpositionCommands } from "./commands/exposition.ts";
import { registerGatewayCommands } from "./commands/gateway.ts";
import { registerInfoCommand } from "./commands/info.ts";
import { registerLoginCommands } from "./commands/login.ts";
import { withExample } from "./commands/options.ts";
import { registerSecretCommands } from "./commands/secret.ts";
import { registerServiceCommands } from "./commands/service.ts";
import { registerValidateCommand } from "./commands/validate.ts";
import { type CliContext, type CliIo, createContext, globalOptions } from "./context.ts";
import { CliError, EXIT_CODES } from "./errors.ts";
import { registerStackCommands } from "./stack/commands.ts";

/** Every command, ready to parse; output goes through `context.io`. */
export function buildProgram(context: CliContext): Command {
  const program = new Command("atrium")
    .description(
      "Atrium: publish backend APIs (OpenAPI, GraphQL, gRPC) as MCP servers. Talks to the control plane's REST API.",
    )
    .version(context.version, "-V, --version", "print the CLI version")
    // Options belong to the command they follow: `service import --version 1.0` is the
    // Service's version, not the CLI's. Each command gets the global options itself (below).
    .enablePositionalOptions();
  for (const option of globalOptions()) program.addOption(option);
  withExample(program, "atrium login --username admin", "atrium service list --output json");

  registerLoginCommands(program, context);
  registerInfoCommand(program, context);
  registerServiceCommands(program, context);
  registerConfigurationPlanCommands(program, context);
  registerExpositionCommands(program, context);
  registerGatewayCommands(program, context);
  registerApiTokenCommands(program, context);
  registerSecretCommands(program, context);
  registerStackCommands(program, context);
  registerValidateCommand(program, context);

  configureTree(program, context.io);
  return program;
}

/** Same output, exit handling and global options on every command, including ones added later. */
function configureTree(command: Command, io: CliIo): void {
  command
    .exitOverride()
    .showHelpAfterError("(add --help for usage and an example)")
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
      getOutHasColors: () => Boolean(io.stdout.isTTY) && !io.env.NO_COLOR,
      getErrHasColors: () => Boolean(io.stderr.isTTY) && !io.env.NO_COLOR,
    });
  if (command.parent && command.commands.length === 0) {
    for (const option of globalOptions()) {
      if (!command.options.some((existing) => existing.long === option.long)) command.addOption(option);
    }
  }
  for (const sub of command.commands) configureTree(sub, io);
}

/** Exit code of a commander outcome: help and version are successes, the rest usage errors. */
function commanderExitCode(error: CommanderError): number {
  if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT_CODES.ok;
  // `atrium help` (0), or a command group run without a subcommand (help on stderr, 1).
  if (error.code === "commander.help") return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  return EXIT_CODES.usage;
}

/**
 * Runs `atrium` on `argv` (process.argv form: node, script, arguments…) and returns the exit code.
 * Tests pass their own streams and environment in `io`.
 */
export async function runCli(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const streams: CliIo = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    stdin: io.stdin ?? process.stdin,
    env: io.env ?? process.env,
  };
  try {
    await buildProgram(createContext(streams)).parseAsync(argv);
    return EXIT_CODES.ok;
  } catch (error) {
    // commander has already printed its message (or the help).
    if (error instanceof CommanderError) return commanderExitCode(error);
    if (error instanceof CliError) {
      streams.stderr.write(`error: ${error.message}\n`);
      return error.exitCode;
    }
    // A bug: the message, and the stack only when asked for.
    const message = error instanceof Error ? error.message : String(error);
    streams.stderr.write(`error: ${message}\n`);
    if (streams.env.ATRIUM_DEBUG && error instanceof Error && error.stack) streams.stderr.write(`${error.stack}\n`);
    else streams.stderr.write("(set ATRIUM_DEBUG=1 for details)\n");
    return EXIT_CODES.failure;
  }
}
