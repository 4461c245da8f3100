/**
 * The `config create` flags of a plan's backend secret: a stored secret sent as it is
 * (`--backend-secret`), a credential each user gives through URL elicitation
 * (`--backend-elicit`, with `--backend-elicit-sign-in-client-id` to sign them in first), or OAuth 2.0 client credentials (`--backend-token-url` and the flags that
 * go with it), whose token the gateways get and send as `Authorization: Bearer`.
 */
import type { PlanBody } from "@atrium/contract/rest";
import type { Command } from "commander";
import { cliErrors } from "../errors.ts";

export interface BackendCredentialFlags {
  backendSecret?: string;
  backendSecretHeader?: string;
  backendSecretPrefix?: string;
  backendElicit?: string;
  backendElicitSignInClientId?: string;
  backendTokenUrl?: string;
  backendClientId?: string;
  backendClientSecret?: string;
  backendClientSecretEnv?: string;
  backendClientAuth?: "basic" | "post";
  backendScope?: string[];
  backendAudience?: string;
  backendResource?: string;
}

/** The client-credentials flags other than the token URL, as written on the command line. */
const CLIENT_CREDENTIAL_FLAGS = {
  backendClientId: "--backend-client-id",
  backendClientSecret: "--backend-client-secret",
  backendClientSecretEnv: "--backend-client-secret-env",
  backendClientAuth: "--backend-client-auth",
  backendScope: "--backend-scope",
  backendAudience: "--backend-audience",
  backendResource: "--backend-resource",
} as const;

export function addBackendCredentialOptions(command: Command): Command {
  return command
    .option("--backend-secret <secret_id>", "a stored secret (`atrium secret create`) the gateway sends to the backend")
    .option(
      "--backend-elicit <description>",
      "ask each user for their own backend credential (URL elicitation), describing what is asked (not with " +
        "--backend-secret)",
    )
    .option(
      "--backend-elicit-sign-in-client-id <id>",
      "with --backend-elicit: the page first signs the user in at the plan's OAuth issuer with this public client " +
        "(code + PKCE, redirect URI <gateway origin>/elicitations/callback) and takes the credential only from " +
        "the user the agent's token names (needs OAuth on the plan)",
    )
    .option("--backend-secret-header <name>", "header carrying the backend secret (default Authorization)")
    .option("--backend-secret-prefix <text>", "text before the secret in that header, e.g. 'Bearer '")
    .option(
      "--backend-token-url <url>",
      "OAuth 2.0 client credentials for the backend: the token endpoint each gateway gets a token from, sent to the " +
        "backend as 'Authorization: Bearer <token>' (not with --backend-secret)",
    )
    .option("--backend-client-id <id>", "client id at that token endpoint (with --backend-token-url)")
    .option(
      "--backend-client-secret <secret_id>",
      "a stored secret (`atrium secret create`) holding the client secret (or --backend-client-secret-env)",
    )
    .option(
      "--backend-client-secret-env <NAME>",
      "the client secret is the gateway's environment variable NAME (allowed by ATRIUM_GATEWAY_ENV_ALLOW)",
    )
    .option(
      "--backend-client-auth <method>",
      "how the client authenticates: basic (HTTP Basic, the default) or post (in the form body)",
    )
    .option("--backend-scope <scope...>", "scopes asked for with the token")
    .option("--backend-audience <text>", "audience parameter sent with the token request (Auth0, Okta)")
    .option("--backend-resource <url>", "resource parameter sent with the token request (RFC 8707)");
}

/** The plan's backend secret from the flags, or undefined when none names one. */
export function backendSecretFromFlags(flags: BackendCredentialFlags): PlanBody["backendSecret"] {
  const clientFlag = Object.entries(CLIENT_CREDENTIAL_FLAGS).find(
    ([key]) => flags[key as keyof BackendCredentialFlags] !== undefined,
  )?.[1];
  if (!flags.backendTokenUrl) {
    if (clientFlag)
      throw cliErrors.optionNeedsAnother(clientFlag, "--backend-token-url <url>", "it is a client-credentials setting");
    if (flags.backendElicit !== undefined && flags.backendSecret !== undefined)
      throw cliErrors.conflictingOptions("--backend-elicit", "--backend-secret", "the backend secret has one source");
    if (flags.backendElicitSignInClientId !== undefined && flags.backendElicit === undefined)
      throw cliErrors.optionNeedsAnother(
        "--backend-elicit-sign-in-client-id",
        "--backend-elicit <description>",
        "the page it signs users in on is the elicitation page",
      );
    if (!flags.backendSecret && flags.backendElicit === undefined) return undefined;
    const signIn =
      flags.backendElicitSignInClientId !== undefined
        ? { signIn: { clientId: flags.backendElicitSignInClientId } }
        : {};
    return {
      ...(flags.backendSecret
        ? { secretId: flags.backendSecret }
        : { elicit: { description: flags.backendElicit, ...signIn } }),
      ...(flags.backendSecretHeader ? { name: flags.backendSecretHeader } : {}),
      ...(flags.backendSecretPrefix ? { prefix: flags.backendSecretPrefix } : {}),
    } as PlanBody["backendSecret"];
  }
  for (const other of [
    "backendSecret",
    "backendElicit",
    "backendElicitSignInClientId",
    "backendSecretHeader",
    "backendSecretPrefix",
  ] as const) {
    if (flags[other] !== undefined) {
      throw cliErrors.conflictingOptions(
        "--backend-token-url",
        `--${other.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
        "a client-credentials token is always sent as 'Authorization: Bearer <token>'; keep one",
      );
    }
  }
  if (!flags.backendClientId)
    throw cliErrors.optionNeedsAnother(
      "--backend-token-url",
      "--backend-client-id <id>",
      "the token endpoint needs it",
    );
  if (flags.backendClientSecret && flags.backendClientSecretEnv)
    throw cliErrors.conflictingOptions("--backend-client-secret", "--backend-client-secret-env", "keep one");
  if (!flags.backendClientSecret && !flags.backendClientSecretEnv) {
    throw cliErrors.optionNeedsAnother(
      "--backend-token-url",
      "--backend-client-secret <secret_id> or --backend-client-secret-env <NAME>",
      "the token endpoint needs the client secret",
    );
  }
  if (flags.backendClientAuth && !["basic", "post"].includes(flags.backendClientAuth))
    throw cliErrors.usage(`--backend-client-auth must be basic or post, not '${flags.backendClientAuth}'`);
  return {
    oauth2ClientCredentials: {
      tokenUrl: flags.backendTokenUrl,
      clientId: flags.backendClientId,
      clientSecret: flags.backendClientSecret
        ? { secretId: flags.backendClientSecret }
        : { env: `\${env:${flags.backendClientSecretEnv}}` },
      ...(flags.backendClientAuth ? { tokenEndpointAuthMethod: `client_secret_${flags.backendClientAuth}` } : {}),
      ...(flags.backendScope ? { scopes: flags.backendScope } : {}),
      ...(flags.backendAudience ? { audience: flags.backendAudience } : {}),
      ...(flags.backendResource ? { resource: flags.backendResource } : {}),
    },
  } as PlanBody["backendSecret"];
}
