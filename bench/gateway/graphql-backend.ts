/**
 * The GraphQL contestants' backend: graphql-http (the reference GraphQL-over-HTTP server) executing
 * pets-graphql.ts's schema at `POST /graphql`, 404 elsewhere. A document is parsed and validated
 * once and then reused, as a production server's document cache does: the harness core should
 * spend its time on the load, not on parsing the same query again. Started by run.ts as a child
 * process; it prints `listening <url>` once it accepts connections.
 *
 *   node bench/gateway/graphql-backend.ts [port]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { buildSchema, type DocumentNode, type GraphQLError, parse, validate } from "graphql";
import { createHandler } from "graphql-http/lib/use/http";
import { PETS_SDL, petOfId } from "./pets-graphql.ts";

const schema = buildSchema(PETS_SDL);
const parsed = new Map<string, DocumentNode>();
const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();

const handler = createHandler({
  schema,
  rootValue: { getPet: ({ petId }: { petId: number }) => petOfId(petId) },
  parse: (source) => {
    const text = typeof source === "string" ? source : source.body;
    let document = parsed.get(text);
    if (!document) {
      document = parse(source);
      if (parsed.size < 100) parsed.set(text, document);
    }
    return document;
  },
  validate: (schemaToUse, document, rules) => {
    let errors = validated.get(document);
    if (!errors) {
      errors = validate(schemaToUse, document, rules);
      validated.set(document, errors);
    }
    return errors;
  },
});

const server = createServer((request, response) => {
  if (request.url !== "/graphql") {
    request.resume();
    response.writeHead(404).end();
    return;
  }
  handler(request, response);
});
// Load generators and gateways keep connections open; don't let the default 5 s timeout churn them.
server.keepAliveTimeout = 60_000;

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}`);
});
process.on("SIGTERM", () => process.exit(0));
