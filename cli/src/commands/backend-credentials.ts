/**
 * The `config create` flags of a plan's backend secret: a stored secret sent as it is
 * (`--backend-secret`), a credential each user gives through URL elicitation
 * (`--backend-elicit`, with `--backend-elicit-sign-in-client-id` to sign them in first), or OAuth 2.0 client credentials (`--backend-token-url` and the flags that
 * go with it), whose token the gateways get and send as `Authorization: Bearer`; with
 * `--backend-token-exchange`, the same flags exchange each caller's token instead (RFC 8693), at
 * `--backend-token-url` or at the token endpoint of `--backend-issuer`.
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
  backendTokenExchange?: boolean;
  backendIssuer?: string;
  backendRequestedTokenType?: "access_token" | "jwt";
  backendClientId?: string;
  backendClientSecret?: string;
  backendClientSecretEnv?: string;
  backendClientAuth?: "basic" | "post" | "private-key-jwt";
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

/** `--backend-requested-token-type`'s words → RFC 8693 token type URIs. */
const TOKEN_TYPES = {
  access_token: "urn:ietf:params:oauth:token-type:access_token",
  jwt: "urn:ietf:params:oauth:token-type:jwt",
};

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
    .option(
      "--backend-token-exchange",
      "exchange each caller's validated token (RFC 8693) at --backend-token-url or --backend-issuer's token " +
        "endpoint for a backend token of their own, instead of client credentials (needs OAuth on the plan); e.g. " +
        "--oauth-issuer https://login.example.com/ --backend-token-exchange --backend-issuer " +
        "https://auth.example.com/ --backend-client-id atrium --backend-client-secret <secret_id> " +
        "--backend-audience https://api.example.com",
    )
    .option(
      "--backend-issuer <url>",
      "with --backend-token-exchange: the backend authorization server's issuer, whose token endpoint is read from " +
        "its RFC 8414 metadata (instead of --backend-token-url)",
    )
    .option("--backend-requested-token-type <type>", "with --backend-token-exchange: access_token (the default) or jwt")
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
      "how the client authenticates: basic (HTTP Basic, the default), post (in the form body), or, with " +
        "--backend-token-exchange, private-key-jwt (--backend-client-secret then holds a PEM private key)",
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
  const exchange = flags.backendTokenExchange === true;
  if (flags.backendIssuer !== undefined && !exchange)
    throw cliErrors.optionNeedsAnother(
      "--backend-issuer",
      "--backend-token-exchange",
      "it is a token-exchange setting",
    );
  if (flags.backendIssuer !== undefined && flags.backendTokenUrl !== undefined)
    throw cliErrors.conflictingOptions("--backend-issuer", "--backend-token-url", "the token endpoint is one of them");
  if (exchange && !flags.backendTokenUrl && !flags.backendIssuer)
    throw cliErrors.optionNeedsAnother(
      "--backend-token-exchange",
      "--backend-token-url <url> or --backend-issuer <url>",
      "it needs the token endpoint",
    );
  if (flags.backendRequestedTokenType !== undefined && !exchange)
    throw cliErrors.optionNeedsAnother(
      "--backend-requested-token-type",
      "--backend-token-exchange",
      "it is a token-exchange setting",
    );
  const endpointFlag = exchange ? "--backend-token-exchange" : "--backend-token-url";
  if (!flags.backendTokenUrl && !exchange) {
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
        endpointFlag,
        `--${other.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
        `a ${exchange ? "token-exchange" : "client-credentials"} token is always sent as 'Authorization: Bearer ` +
          "<token>'; keep one",
      );
    }
  }
  if (!flags.backendClientId)
    throw cliErrors.optionNeedsAnother(endpointFlag, "--backend-client-id <id>", "the token endpoint needs it");
  if (flags.backendClientSecret && flags.backendClientSecretEnv)
    throw cliErrors.conflictingOptions("--backend-client-secret", "--backend-client-secret-env", "keep one");
  if (!flags.backendClientSecret && !flags.backendClientSecretEnv) {
    throw cliErrors.optionNeedsAnother(
      endpointFlag,
      "--backend-client-secret <secret_id> or --backend-client-secret-env <NAME>",
      "the token endpoint needs the client secret",
    );
  }
  const methods = exchange ? ["basic", "post", "private-key-jwt"] : ["basic", "post"];
  if (flags.backendClientAuth && !methods.includes(flags.backendClientAuth))
    throw cliErrors.usage(`--backend-client-auth must be ${methods.join(" or ")}, not '${flags.backendClientAuth}'`);
  const tokenType = flags.backendRequestedTokenType;
  if (tokenType !== undefined && !(tokenType in TOKEN_TYPES))
    throw cliErrors.usage(`--backend-requested-token-type must be access_token or jwt, not '${tokenType}'`);
  const settings = {
    ...(flags.backendTokenUrl ? { tokenUrl: flags.backendTokenUrl } : { issuer: flags.backendIssuer }),
    clientId: flags.backendClientId,
    clientSecret: flags.backendClientSecret
      ? { secretId: flags.backendClientSecret }
      : { env: `\${env:${flags.backendClientSecretEnv}}` },
    ...(flags.backendClientAuth
      ? {
          tokenEndpointAuthMethod:
            flags.backendClientAuth === "private-key-jwt"
              ? "private_key_jwt"
              : `client_secret_${flags.backendClientAuth}`,
        }
      : {}),
    ...(flags.backendScope ? { scopes: flags.backendScope } : {}),
    ...(flags.backendAudience ? { audience: flags.backendAudience } : {}),
    ...(flags.backendResource ? { resource: flags.backendResource } : {}),
    ...(tokenType ? { requestedTokenType: TOKEN_TYPES[tokenType] } : {}),
  };
  return (exchange ? { tokenExchange: settings } : { oauth2ClientCredentials: settings }) as PlanBody["backendSecret"];
}
