/**
 * Every way a command can fail, as coded constructors in one place. A message says what went
 * wrong and what to do about it; the exit code tells scripts which kind of failure it was.
 */

/** Exit codes of `atrium`. Usage errors (a missing flag, a bad value) are commander's, with code 2. */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** No stored login, or the stored one expired or was revoked: run `atrium login`. */
  notLoggedIn: 3,
} as const;

export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  /** HTTP status when the control plane answered with an error. */
  readonly status: number | undefined;

  constructor(code: string, message: string, exitCode: number = EXIT_CODES.failure, status?: number) {
    super(message);
    this.name = "CliError";
    this.code = code;
    this.exitCode = exitCode;
    this.status = status;
  }
}

const LOGIN_HINT = "run `atrium login --username <user>` (add `--control-plane <url>` for a remote one)";

export const cliErrors = {
  usage: (message: string) => new CliError("USAGE", message, EXIT_CODES.usage),
  conflictingOptions: (first: string, second: string, why: string) =>
    new CliError("CONFLICTING_OPTIONS", `${first} and ${second} cannot be used together: ${why}`, EXIT_CODES.usage),
  optionNeedsAnother: (option: string, needed: string, why: string) =>
    new CliError("OPTION_NEEDS_ANOTHER", `${option} needs ${needed}: ${why}`, EXIT_CODES.usage),
  notLoggedIn: () => new CliError("NOT_LOGGED_IN", `You are not logged in: ${LOGIN_HINT}`, EXIT_CODES.notLoggedIn),
  loginExpired: (url: string, expiresAt: string) =>
    new CliError(
      "LOGIN_EXPIRED",
      `Your login to ${url} expired at ${expiresAt}: log in again with ${LOGIN_HINT.replace("run ", "")}`,
      EXIT_CODES.notLoggedIn,
    ),
  loginRejected: (url: string) =>
    new CliError(
      "LOGIN_REJECTED",
      `Your login has expired or was revoked: run \`atrium login\` (control plane ${url})`,
      EXIT_CODES.notLoggedIn,
      401,
    ),
  unreadableCredentials: (path: string, reason: string) =>
    new CliError(
      "CREDENTIALS_UNREADABLE",
      `The stored login in ${path} cannot be read (${reason}): run \`atrium login\` again to replace it`,
      EXIT_CODES.notLoggedIn,
    ),
  unreachable: (url: string, reason: string) =>
    new CliError(
      "UNREACHABLE",
      `Cannot reach the control plane at ${url} (${reason}): is it running? ` +
        "(`atrium run` starts a local one; `--control-plane <url>` points at another)",
    ),
  problem: (status: number, code: string, message: string) => new CliError(code, message, EXIT_CODES.failure, status),
  unexpectedAnswer: (url: string, status: number, snippet: string) =>
    new CliError(
      "UNEXPECTED_ANSWER",
      `${url} answered ${status} with something other than an Atrium problem document` +
        `${snippet ? ` (${snippet})` : ""}: is --control-plane the URL of an Atrium control plane?`,
      EXIT_CODES.failure,
      status,
    ),
  unreadableAnswer: (url: string, reason: string) =>
    new CliError(
      "UNREADABLE_ANSWER",
      `${url}: ${reason}: is --control-plane the URL of an Atrium control plane this CLI's version can talk to?`,
    ),
  unreadableFile: (path: string, reason: string) =>
    new CliError("FILE_UNREADABLE", `Cannot read ${path}: ${reason}`, EXIT_CODES.failure),
  emptyInput: (what: string, how: string) =>
    new CliError("EMPTY_INPUT", `No ${what} was given: ${how}`, EXIT_CODES.usage),
  cancelled: () => new CliError("CANCELLED", "Cancelled", EXIT_CODES.failure),
  noContainerEngine: () =>
    new CliError(
      "NO_CONTAINER_ENGINE",
      "`atrium run --release` needs podman with podman-compose (apt-get install podman podman-compose), " +
        "or Docker with its compose plugin and a running daemon; `atrium run` without --release runs the stack as local processes",
    ),
  imageMissing: (image: string, release: string) =>
    new CliError(
      "IMAGE_MISSING",
      `The image ${image} is not on this machine: build release ${release}'s images with ` +
        `\`hack/images/build.sh --tag ${release}\` in a clone of the repository`,
    ),
  composeFailed: (command: string, output: string) =>
    new CliError("COMPOSE_FAILED", `\`${command}\` failed:\n${output}`),
  invalidResources: (invalid: number, total: number) =>
    new CliError(
      "INVALID_RESOURCES",
      `${invalid} of ${total} resource${total === 1 ? "" : "s"} invalid: fix the fields named above`,
      EXIT_CODES.failure,
    ),
};
