/** `npm run generate --workspace @atrium/ui`: rewrites src/api/generated/schema.d.ts from the control plane. */
import { writeFileSync } from "node:fs";
import { schemaFile, schemaText, servedOpenApiDocument } from "./api-schema.ts";

writeFileSync(schemaFile, await schemaText(await servedOpenApiDocument()));
process.stdout.write(`wrote ${schemaFile}\n`);
