/**
 * Fields defined twice in one type with the same arguments, type and directives: real-world SDL
 * has them (GitHub's public schema, as @octokit/graphql-schema 15.26.1 ships it, defines two
 * EnterpriseOwnerInfo fields twice, one of them with another field's description). graphql-js
 * refuses any second definition; one that calls the same way says nothing the server could answer
 * differently, so it is dropped with a warning (the first description kept). Two definitions
 * whose arguments, type or directives differ stay, and graphql-js refuses them with their place:
 * which one the server answers by cannot be known.
 */
import type { ImportWarning, ImportWarningCode } from "@atrium/contract/rest";
import { type DocumentNode, Kind, print, visit } from "graphql";

const typesWithFields = [
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_EXTENSION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_EXTENSION,
];

export function dropIdenticalDuplicateFields(document: DocumentNode): {
  document: DocumentNode;
  warnings: ImportWarning[];
} {
  const warnings: (ImportWarning & { code: ImportWarningCode })[] = [];
  const visitor = Object.fromEntries(
    typesWithFields.map((kind) => [
      kind,
      (node: { name: { value: string }; fields?: readonly { name: { value: string } }[] }) => {
        const seen = new Map<string, { signature: string; description: string | undefined }>();
        const kept = (node.fields ?? []).filter((field) => {
          const { description, ...rest } = field as typeof field & { description?: { value: string } };
          const signature = print(rest as Parameters<typeof print>[0]);
          const first = seen.get(field.name.value);
          if (first === undefined) seen.set(field.name.value, { signature, description: description?.value });
          if (first?.signature !== signature) return true;
          const other = first.description === description?.value ? "" : " with another description (the first is kept)";
          const start = (field as { loc?: { startToken: { line: number; column: number } } }).loc?.startToken;
          warnings.push({
            code: "GRAPHQL_DUPLICATE_FIELD_DROPPED",
            message: `Field "${node.name.value}.${field.name.value}" is defined again${start ? ` (line ${start.line}, column ${start.column})` : ""} with the same arguments and type${other}: the second definition was dropped`,
            ...(start ? { location: { line: start.line, column: start.column } } : {}),
          });
          return false;
        });
        return kept.length === node.fields?.length ? undefined : { ...node, fields: kept };
      },
    ]),
  );
  return { document: visit(document, visitor), warnings };
}
