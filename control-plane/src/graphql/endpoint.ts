/**
 * A GraphQL schema from a URL, two ways, told by the URL's path alone (no guessing from answers):
 * a path ending in `.graphql`, `.gql`, `.graphqls` or `.json` names a file, downloaded with `GET`
 * (SDL, or a saved introspection result); any other path is the GraphQL endpoint itself, sent the
 * standard introspection query (graphql-js's `getIntrospectionQuery()`) with `POST`. Both go
 * through the same SSRF guard, size and time limits and import worker.
 */
import { getIntrospectionQuery } from "graphql";

const fileExtensions = /\.(graphql|gql|graphqls|json)$/i;

export function isGraphqlEndpoint(url: string): boolean {
  return !fileExtensions.test(URL.canParse(url) ? new URL(url).pathname : url);
}

/** The introspection request's JSON body (GraphQL over HTTP). */
export const introspectionRequest = JSON.stringify({
  query: getIntrospectionQuery(),
  operationName: "IntrospectionQuery",
});
