/**
 * Secrets the user types: read from standard input when it is piped (or when asked to), else
 * prompted without echo. Never taken from a command-line argument, which shells keep in history
 * and `ps` shows to every user of the machine.
 */
import { cliErrors } from "./errors.ts";

export interface SecretInput {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where the prompt is drawn (stderr, so stdout stays the command's output). */
  prompt: NodeJS.WritableStream;
}

/** All of standard input, without the one line break `echo` adds. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export async function readSecret(
  input: SecretInput,
  options: {
    /** e.g. "password" */
    what: string;
    message: string;
    /** Read stdin even when it is a terminal. */
    fromStdin?: boolean | undefined;
    /** How to pass the value without a terminal, for the error when none came. */
    pipeExample: string;
  },
): Promise<string> {
  let value: string;
  if (options.fromStdin || !input.stdin.isTTY) {
    value = await readStdin(input.stdin);
  } else {
    const { default: password } = await import("@inquirer/password");
    try {
      value = await password({ message: options.message, mask: true }, { input: input.stdin, output: input.prompt });
    } catch (error) {
      // Ctrl-C in the prompt.
      if ((error as Error).name === "ExitPromptError") throw cliErrors.cancelled();
      throw error;
    }
  }
  if (value.length === 0) {
    throw cliErrors.emptyInput(
      options.what,
      `type it at the prompt in a terminal, or pipe it in: ${options.pipeExample}`,
    );
  }
  return value;
}
