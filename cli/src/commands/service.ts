/**
 * `atrium service`: import an OpenAPI document, a GraphQL schema or gRPC .proto files as a Service
 * (local files are uploaded, an http(s) URL is fetched by the control plane, a grpc(s):// server is
 * read through reflection), and list, show or delete Services.
 */
import { extname } from "node:path";
import {
  type OperationSummary,
  type ServiceBody,
  type ServiceView,
  serviceDetail,
  serviceView,
} from "@atrium/contract/rest";
import { type ServiceKind, serviceKind } from "@atrium/crds";
import { type Command, InvalidArgumentError, Option } from "commander";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import { cliErrors } from "../errors.ts";
import type { Column } from "../output.ts";
import { commandGroup, withExample } from "./options.ts";
import { collectProtoFiles } from "./proto-files.ts";
import { deleteCommand, listCommand } from "./records.ts";
import { readTextFile } from "./settings-file.ts";

const SERVICE_ID = { name: "service_id", description: "Service id" };

const LIST_COLUMNS: Column<ServiceView>[] = [
  "id",
  "name",
  "version",
  "kind",
  "title",
  { header: "OPERATIONS", value: (s) => s.operationCount },
  { header: "CREATED", value: (s) => s.createdAt },
];
const OPERATION_COLUMNS: Column<OperationSummary>[] = [
  { header: "OPERATION ID", value: (o) => o.operationId },
  { header: "METHOD", value: (o) => o.method.toUpperCase() },
  "path",
  "summary",
];

/**
 * A source's kind told by its extension (`.graphql`, `.gql`: graphql; `.proto`: grpc) or URL scheme
 * (`grpc://`, `grpcs://`: grpc); otherwise the control plane tells it from the content.
 */
export function kindOfSource(source: string): ServiceKind | undefined {
  if (isGrpcUrl(source)) return "grpc";
  const extension = extname(pathOf(source)).toLowerCase();
  if (extension === ".proto") return "grpc";
  return [".graphql", ".gql"].includes(extension) ? "graphql" : undefined;
}

/** The upload's content type: by extension, else by the first character (JSON starts with `{`). */
export function documentContentType(file: string, text: string): string {
  const extension = extname(file).toLowerCase();
  if (extension === ".graphql" || extension === ".gql") return "text/plain";
  if (extension === ".json") return "application/json";
  if (extension === ".yaml" || extension === ".yml") return "application/yaml";
  return text.trimStart().startsWith("{") ? "application/json" : "application/yaml";
}

/** The schema's own refusal of an unknown kind as a usage error. */
function parseKind(value: string): ServiceKind {
  const parsed = serviceKind.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`${parsed.error.issues[0]?.message ?? "unknown kind"}.`);
  return parsed.data;
}

/** A file's path, or a URL's (a URL that does not parse has none: the control plane refuses it in words). */
function pathOf(source: string): string {
  if (!isHttpUrl(source)) return source;
  return URL.canParse(source) ? new URL(source).pathname : "";
}

function isHttpUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function isGrpcUrl(source: string): boolean {
  return /^grpcs?:\/\//i.test(source);
}

interface ImportOptions {
  name: string;
  version: string;
  description?: string;
  kind?: ServiceKind;
  protoPath: string[];
}

export function registerServiceCommands(program: Command, context: CliContext): void {
  const service = commandGroup(
    program,
    "service",
    "import OpenAPI documents, GraphQL schemas or gRPC .proto files as Services, and manage them",
    "atrium service import ./petstore.yaml --name petstore --version 1.0.0",
  );

  const importCommand = service
    .command("import")
    .description(
      "create a Service from an OpenAPI 2.0, 3.0 or 3.1 document (JSON or YAML), a GraphQL schema (SDL or introspection JSON), or gRPC .proto files or a gRPC server's reflection",
    )
    .argument(
      "<file|url...>",
      "a local file (uploaded), an http(s) URL the control plane downloads (with --kind graphql, a URL whose path does not end in .graphql, .gql, .graphqls or .json is the GraphQL endpoint, sent the introspection query), or a grpc(s)://host:port server it reads through reflection; several .proto files for one gRPC Service",
    )
    .addOption(
      new Option(
        "--kind <kind>",
        "openapi, graphql or grpc; default: graphql for .graphql/.gql files, grpc for .proto files and grpc(s):// URLs, else told from the content",
      ).argParser(parseKind),
    )
    .option(
      "--proto-path <dir>",
      "where .proto imports are found, like protoc's -I (repeatable; default: the current directory): every file the import needs is uploaded with its path relative to it",
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .requiredOption("--name <name>", "Service name: lowercase letters, digits, '-' or '.'")
    .requiredOption("--version <version>", "Service version, e.g. 1.0.0")
    .option("--description <text>", "what the Service is")
    .action(async (sources: string[], options: ImportOptions, command: Command) => {
      const { api } = context.session(command);
      const fields = {
        name: options.name,
        version: options.version,
        ...(options.description ? { description: options.description } : {}),
      };
      const [source = ""] = sources;
      const kind = options.kind ?? kindOfSource(source);
      if (sources.length > 1 && kind !== "grpc")
        throw cliErrors.usage("several files make one Service only for kind grpc (.proto files): give one document");
      let created: ServiceView;
      if (kind === "grpc" && !isHttpUrl(source)) {
        const openapi = isGrpcUrl(source)
          ? { url: source }
          : { protoFiles: collectProtoFiles(sources, options.protoPath) };
        created = await api.post("/services", { ...fields, kind, openapi } satisfies ServiceBody, serviceView);
      } else if (isHttpUrl(source)) {
        created = await api.post(
          "/services",
          { ...fields, ...(kind ? { kind } : {}), openapi: { url: source } } satisfies ServiceBody,
          serviceView,
        );
      } else {
        const text = readTextFile(source, "no such file (give a path to an OpenAPI document, or an http(s) URL)");
        created = await api.send("POST", "/services/import", {
          answer: serviceView,
          query: { ...fields, ...(kind ? { kind } : {}) },
          rawBody: { text, contentType: documentContentType(source, text) },
        });
      }
      // Patterns rewritten or dropped so that every client compiles the tools' schemas.
      for (const warning of created.importWarnings) context.warn(warning.message);
      context.print(command, created);
    });
  withExample(
    importCommand,
    "atrium service import ./petstore.yaml --name petstore --version 1.0.0",
    "atrium service import ./store.graphql --name store --version 1",
    "atrium service import https://shop.example.com/graphql --kind graphql --name shop --version 1",
    "atrium service import protos/pets/v1/pets.proto --proto-path protos --name pets --version 1",
    "atrium service import grpc://pets.internal:50051 --name pets --version 1",
    "atrium service import https://petstore3.swagger.io/api/v3/openapi.json --name petstore --version 3 --output json",
  );

  listCommand(service, context, {
    description: "list Services",
    path: "/services",
    view: serviceView,
    columns: LIST_COLUMNS,
    empty: "No services: import one with `atrium service import`.",
    examples: ["atrium service list"],
  });

  const get = service
    .command("get")
    .description("show a Service and its operations")
    .argument(`<${SERVICE_ID.name}>`, SERVICE_ID.description)
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      const detail = await api.get(`/services/${segment(id)}`, serviceDetail);
      if (context.settings(command).output !== "table") {
        context.print(command, detail);
        return;
      }
      const { operations, ...record } = detail;
      context.print(command, record);
      context.io.stdout.write("\n");
      context.print(command, operations, { columns: OPERATION_COLUMNS, empty: "No operations." });
    });
  withExample(get, "atrium service get 3f2c9a7e-1b4d-4c52-9a8e-2f1d0c6b7a91");

  deleteCommand(service, context, {
    description: "delete a Service (its Configuration Plans must be deleted first)",
    path: "/services",
    id: SERVICE_ID,
    done: (id) => `Deleted service ${id}.`,
    examples: ["atrium service delete 3f2c9a7e-1b4d-4c52-9a8e-2f1d0c6b7a91"],
  });
}
