/**
 * Real GitHub REST API answers, as recorded by `@octokit/fixtures` (GitHub's own fixtures of
 * api.github.com, normalized: ids and dates made stable): a repository (`GET /repos/{owner}/{repo}`)
 * and a page of issues (`GET /repos/{owner}/{repo}/issues`). The output filter tests and the
 * worked example of docs/gateway.md filter them.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

type Recorded = { path: string; status: number; response: unknown };

/** The recorded exchanges of a scenario, read as files: the package's entry point loads nock. */
function recorded(scenario: string): Recorded[] {
  const file = createRequire(import.meta.url).resolve(
    `@octokit/fixtures/scenarios/${scenario}/normalized-fixture.json`,
  );
  return JSON.parse(readFileSync(file, "utf8")) as Recorded[];
}

export type Repository = {
  id: number;
  full_name: string;
  description: string | null;
  stargazers_count: number;
  private: boolean;
  owner: { login: string };
  [member: string]: unknown;
};
export type Issue = { number: number; title: string; user: { login: string }; [member: string]: unknown };

export const REPOSITORY = recorded("api.github.com/get-repository")[0]?.response as Repository;
export const ISSUES = recorded("api.github.com/paginate-issues")[0]?.response as Issue[];

/** The repository's answer as GitHub's OpenAPI describes it, shortened to the members the tests read. */
export const repositorySchema = {
  type: "object",
  required: ["id", "full_name", "owner", "private"],
  properties: {
    id: { type: "integer" },
    full_name: { type: "string" },
    description: { type: "string", nullable: true },
    private: { type: "boolean" },
    stargazers_count: { type: "integer" },
    owner: {
      type: "object",
      required: ["login", "id"],
      properties: { login: { type: "string" }, id: { type: "integer" } },
    },
  },
};
