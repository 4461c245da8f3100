/**
 * `atrium run`, `status` and `stop`: the local stack, as processes or (`--release`) as a release's
 * containers.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { type Command, Option } from "commander";
import type { CliContext } from "../context.ts";
import { cliErrors } from "../errors.ts";
import { composeFile, composeProject, IMAGE_REPOSITORY } from "./compose.ts";
import { demoInstructions } from "./demo.ts";
import { stackFiles } from "./paths.ts";
import { health, isAlive, stopProcess } from "./processes.ts";
import { runRelease, stopRelease } from "./release.ts";
import { runStack } from "./run.ts";
import { clearState, readState } from "./state.ts";

const port = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 65535)
    throw cliErrors.usage(`'${value}' is not a port number`);
  return number;
};

const uiLine = (url: string) => `Web UI:        ${url}   (sign in with the admin's organization, user and password)`;

export function registerStackCommands(program: Command, context: CliContext): void {
  program
    .command("run")
    .description(
      "Start a local stack: the control plane (embedded database) and a gateway, in the background (as processes, or a release's containers)",
    )
    .option("--demo", "also start a demo pet store API and publish it as an MCP endpoint")
    .option(
      "--ui",
      "also serve the web UI from the control plane (built into the cache on first use; with --release, the one its image carries)",
    )
    .option("--compose", "only write the release's Compose file (see --release), start nothing")
    .option(
      "--release <version>",
      "start that release's container stack with podman (podman-compose) or Docker instead of local processes; " +
        "its images come from hack/images/build.sh --tag <version>",
    )
    .addOption(new Option("--control-plane-port <port>", "control plane port").default(5555).argParser(port))
    .addOption(new Option("--gateway-port <port>", "gateway port").default(7777).argParser(port))
    .addOption(
      new Option("--gateway-management-port <port>", "gateway metrics port (127.0.0.1)").default(9090).argParser(port),
    )
    .addOption(new Option("--demo-port <port>", "demo backend port").default(7780).argParser(port))
    .addHelpText(
      "after",
      "\nExamples:\n  $ atrium run --demo          # everything, plus a demo MCP endpoint to try\n" +
        "  $ atrium run --release 0.1.0 # the 0.1.0 images, as containers\n  $ atrium run --compose --release 0.1.0",
    )
    .action(
      async (
        options: {
          demo?: boolean;
          ui?: boolean;
          compose?: boolean;
          release?: string;
          controlPlanePort: number;
          gatewayPort: number;
          gatewayManagementPort: number;
          demoPort: number;
        },
        command: Command,
      ) => {
        const { stdout } = context.io;
        const ports = { controlPlane: options.controlPlanePort, gateway: options.gatewayPort };
        if (options.compose) {
          const release = options.release ?? context.version;
          const files = stackFiles();
          mkdirSync(files.dir, { recursive: true, mode: 0o700 });
          writeFileSync(files.compose, composeFile(release, ports, composeProject(files.dir), Boolean(options.ui)), {
            mode: 0o600,
          });
          chmodSync(files.compose, 0o600);
          stdout.write(
            `Wrote ${files.compose} (Atrium ${release}, images ${IMAGE_REPOSITORY}/*:${release}).\n` +
              `Start it with: atrium run --release ${release}\n` +
              `(by hand: \`up -d control-plane\`, create a gateway token, then \`ATRIUM_CONTROL_PLANE_TOKEN=<token> … up -d gateway\`)\n`,
          );
          return;
        }
        if (options.release) {
          if (options.demo) {
            throw cliErrors.conflictingOptions(
              "--release",
              "--demo",
              "the demo pet store runs with the local processes (`atrium run --demo`)",
            );
          }
          const result = await runRelease({ release: options.release, ports, ui: Boolean(options.ui) }, context.io);
          const lines = [
            "",
            `Control plane: ${result.controlPlane}   (REST API ${result.controlPlane}/api/v1)`,
            `Gateway:       ${result.gateway}   (MCP endpoints under /mcp/)`,
            `Containers:    ${result.engine}, ${result.composeFile}`,
          ];
          if (result.ui) lines.push(uiLine(result.ui));
          if (result.admin) {
            lines.push(
              "",
              `Admin (first start): organization '${result.admin.organization}', user '${result.admin.username}', password '${result.admin.password}'`,
              "  shown only now — keep it; the CLI is logged in as this admin.",
            );
          }
          lines.push("", "`atrium status` shows the stack, `atrium stop` stops it (data is kept in its volumes).");
          context.note(command, lines.join("\n"));
          return;
        }
        const result = await runStack({ ...options, demo: Boolean(options.demo), ui: Boolean(options.ui) }, context.io);
        const lines = [
          "",
          `Control plane: ${result.controlPlane}   (REST API ${result.controlPlane}/api/v1, OpenAPI at /api/v1/openapi.json)`,
          `Gateway:       ${result.gateway}   (MCP endpoints under /mcp/; metrics at ${result.metrics})`,
          `Audit events:  ${result.auditLog}   (plans with audit on; JSON lines)`,
        ];
        if (result.ui) lines.push(uiLine(result.ui));
        if (result.admin) {
          lines.push(
            "",
            `Admin (first start): organization '${result.admin.organization}', user '${result.admin.username}', password '${result.admin.password}'`,
            "  shown only now — keep it; the CLI is logged in as this admin.",
          );
        }
        if (result.demo) lines.push("", demoInstructions(result.demo));
        lines.push("", tracingLine(process.env));
        lines.push("", "`atrium status` shows the stack, `atrium stop` stops it (data is kept).");
        context.note(command, lines.join("\n"));
      },
    );

  program
    .command("status")
    .description("Show the local stack's processes, versions and readiness, and where the gateway's audit events go")
    .addHelpText("after", "\nExample:\n  $ atrium status -o json")
    .action(async (_options: unknown, command: Command) => {
      const state = readState(stackFiles().state);
      if (!state) {
        context.note(command, "Atrium is not running locally: `atrium run` starts it.");
        return;
      }
      if (state.compose) {
        const compose = state.compose;
        const rows = await Promise.all(
          compose.services.map(async (service) => {
            const checked = await health(service.url);
            return {
              name: service.name,
              url: service.url,
              version: checked.version ?? "",
              state: checked.ready ? "ready" : checked.live ? "starting" : "not answering",
              release: compose.release,
            };
          }),
        );
        context.print(command, rows, { columns: ["name", "url", "version", "state"] });
        context.note(command, `Containers: ${compose.engine}, ${compose.file}`);
        if (state.ui) context.note(command, `Web UI: ${state.ui.url}`);
        return;
      }
      const rows = await Promise.all(
        state.processes.map(async (process_) => {
          const alive = isAlive(process_.pid);
          const checked = alive ? await health(process_.url) : { ready: false, version: undefined };
          return {
            name: process_.name,
            pid: process_.pid,
            url: process_.url,
            version: checked.version ?? "",
            state: alive ? (checked.ready ? "ready" : "starting") : "stopped",
            log: process_.log,
            ...(process_.name === "gateway" && state.gatewayAuditLog ? { auditLog: state.gatewayAuditLog } : {}),
          };
        }),
      );
      context.print(command, rows, { columns: ["name", "pid", "url", "version", "state"] });
      if (state.gatewayAuditLog) context.note(command, `Audit events: ${state.gatewayAuditLog}`);
      if (state.demo) context.note(command, `Demo endpoint: ${state.demo.endpoint}`);
      if (state.ui) context.note(command, `Web UI: ${state.ui.url}`);
    });

  program
    .command("stop")
    .description("Stop the local stack gracefully (its data is kept for the next `atrium run`)")
    .addHelpText("after", "\nExample:\n  $ atrium stop")
    .action(async (_options: unknown, command: Command) => {
      const files = stackFiles();
      const state = readState(files.state);
      if (!state) {
        context.note(command, "Atrium is not running locally: nothing to stop.");
        return;
      }
      if (state.compose) {
        await stopRelease(state.compose);
        context.note(command, `Stopped the containers of Atrium ${state.compose.release} (data kept in their volumes)`);
        clearState(files.state);
        return;
      }
      // The gateway first, so it deregisters while the control plane still answers.
      const order = ["demo-backend", "gateway", "control-plane"];
      const processes = [...state.processes].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
      for (const process_ of processes) {
        const outcome = await stopProcess(process_.pid);
        context.note(command, `${process_.name}: ${outcome === "gone" ? "was not running" : outcome}`);
      }
      clearState(files.state);
    });
}

/** Where the stack's traces go, or how to send them somewhere (the processes read the OTEL_* variables of this shell). */
export function tracingLine(env: NodeJS.ProcessEnv): string {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint && env.OTEL_TRACES_EXPORTER !== "none")
    return `Traces:        exported over OTLP to ${endpoint} (OTEL_* variables of this shell)`;
  return (
    "Traces:        off. To trace requests, stop the stack and start it with an OTLP collector's address:\n" +
    "  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 atrium run   (docs/observability.md)"
  );
}
