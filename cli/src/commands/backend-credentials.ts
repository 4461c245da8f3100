/**
 * The `config create` flags of a plan's backend secret: a stored secret sent as it is
 * (`--backend-secret`), a credential each user gives through URL elicitation
 * (`--backend-elicit`, with `--backend-elicit-sign-in-client-id` to sign them in first), or a
 * token from the backend's OAuth 2.0 authorization server, always sent as `Authorization: Bearer`,
 * by one of three grants sharing the client flags: client credentials (`--backend-token-url`),
 * each caller's token exchanged (`--backend-token-exchange`, RFC 8693), or each user's own
 * authorization in a browser (`--backend-authorization-code`, code + PKCE).
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
  backendAuthorizationCode?: boolean;
  backendIssuer?: string;
  backendAuthorizationUrl?: string;
  backendRevocationUrl?: string;
  backendAuthorizationDescription?: string;
  backendRequestedTokenType?: "access_token" | "jwt";
  backendActorToken?: boolean;
  backendClientId?: string;
  backendClientSecret?: string;
  backendClientSecretEnv?: string;
  backendClientAuth?: "basic" | "post" | "private-key-jwt";
  backendScope?: string[];
  backendAudience?: string;
  backendResource?: string;
}

type BackendSecret = NonNullable<PlanBody["backendSecret"]>;
/** The grants by which the gateways get the backend's token, as the REST body names them. */
type Grant = "oauth2ClientCredentials" | "tokenExchange" | "oauth2AuthorizationCode";

/** Each grant: the flag that chooses it (as needed, and as named), and the token it gives, in messages. */
const GRANTS: Record<Grant, { needs: string; flag: string; words: string; token: string }> = {
  oauth2ClientCredentials: {
    needs: "--backend-token-url <url>",
    flag: "--backend-token-url",
    words: "client-credentials",
    token: "a client-credentials token",
  },
  tokenExchange: {
    needs: "--backend-token-exchange",
    flag: "--backend-token-exchange",
    words: "token-exchange",
    token: "a token-exchange token",
  },
  oauth2AuthorizationCode: {
    needs: "--backend-authorization-code",
    flag: "--backend-authorization-code",
    words: "authorization-code",
    token: "each user's authorized token",
  },
};

const EVERY_GRANT: readonly Grant[] = ["oauth2ClientCredentials", "tokenExchange", "oauth2AuthorizationCode"];

/** The grants' settings other than the token URL, and the grants each belongs to. */
const GRANT_SETTINGS: { [K in keyof BackendCredentialFlags]?: { flag: string; grants: readonly Grant[] } } = {
  backendIssuer: { flag: "--backend-issuer", grants: ["tokenExchange", "oauth2AuthorizationCode"] },
  backendAuthorizationUrl: { flag: "--backend-authorization-url", grants: ["oauth2AuthorizationCode"] },
  backendRevocationUrl: { flag: "--backend-revocation-url", grants: ["oauth2AuthorizationCode"] },
  backendAuthorizationDescription: {
    flag: "--backend-authorization-description",
    grants: ["oauth2AuthorizationCode"],
  },
  backendRequestedTokenType: { flag: "--backend-requested-token-type", grants: ["tokenExchange"] },
  backendActorToken: { flag: "--backend-actor-token", grants: ["tokenExchange"] },
  backendClientId: { flag: "--backend-client-id", grants: EVERY_GRANT },
  backendClientSecret: { flag: "--backend-client-secret", grants: EVERY_GRANT },
  backendClientSecretEnv: { flag: "--backend-client-secret-env", grants: EVERY_GRANT },
  backendClientAuth: { flag: "--backend-client-auth", grants: EVERY_GRANT },
  backendScope: { flag: "--backend-scope", grants: EVERY_GRANT },
  backendAudience: { flag: "--backend-audience", grants: ["oauth2ClientCredentials", "tokenExchange"] },
  backendResource: { flag: "--backend-resource", grants: EVERY_GRANT },
};

/** The flags of the other sources, which a grant's bearer token leaves no room for. */
const NOT_WITH_A_GRANT = {
  backendSecret: "--backend-secret",
  backendElicit: "--backend-elicit",
  backendElicitSignInClientId: "--backend-elicit-sign-in-client-id",
  backendSecretHeader: "--backend-secret-header",
  backendSecretPrefix: "--backend-secret-prefix",
} as const;

/** `--backend-client-auth`'s words → the token endpoint authentication methods. */
const AUTH_METHODS = {
  basic: "client_secret_basic",
  post: "client_secret_post",
  "private-key-jwt": "private_key_jwt",
} as const;

/** `--backend-requested-token-type`'s words → RFC 8693 token type URIs. */
const TOKEN_TYPES = {
  access_token: "urn:ietf:params:oauth:token-type:access_token",
  jwt: "urn:ietf:params:oauth:token-type:jwt",
} as const;

const CLIENT_SECRET_FLAGS = "--backend-client-secret <secret_id> or --backend-client-secret-env <NAME>";

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
        "backend as 'Authorization: Bearer <token>' (not with --backend-secret); with --backend-token-exchange or " +
        "--backend-authorization-code, that grant's token endpoint",
    )
    .option(
      "--backend-token-exchange",
      "exchange each caller's validated token (RFC 8693) at --backend-token-url or --backend-issuer's token " +
        "endpoint for a backend token of their own, instead of client credentials (needs OAuth on the plan); e.g. " +
        "--oauth-issuer https://login.example.com/ --backend-token-exchange --backend-issuer " +
        "https://auth.example.com/ --backend-client-id atrium-gateway --backend-client-secret <secret_id> " +
        "--backend-audience https://api.example.com",
    )
    .option(
      "--backend-authorization-code",
      "each user authorizes the backend once in a browser (authorization code + PKCE through URL elicitation) at " +
        "--backend-issuer, or at --backend-authorization-url with --backend-token-url; calls send their own token. " +
        "Register the redirect URI <gateway origin>/elicitations/authorized; e.g. --backend-authorization-code " +
        "--backend-issuer https://auth.example.com/ --backend-client-id atrium-gateway --backend-client-secret " +
        "<secret_id> --backend-scope offline_access pets:read --backend-authorization-description 'Let the agent " +
        "see your pets'",
    )
    .option(
      "--backend-issuer <url>",
      "with --backend-token-exchange or --backend-authorization-code: the backend authorization server's issuer, " +
        "whose endpoints are read from its RFC 8414 metadata (instead of --backend-token-url and " +
        "--backend-authorization-url)",
    )
    .option(
      "--backend-authorization-url <url>",
      "with --backend-authorization-code and --backend-token-url: the authorization endpoint users are sent to",
    )
    .option(
      "--backend-revocation-url <url>",
      "with --backend-authorization-code: the RFC 7009 endpoint where a grant a user removes is revoked (read " +
        "from --backend-issuer's metadata when not given)",
    )
    .option(
      "--backend-authorization-description <text>",
      "with --backend-authorization-code: what users are told the authorization is for",
    )
    .option("--backend-requested-token-type <type>", "with --backend-token-exchange: access_token (the default) or jwt")
    .option(
      "--backend-actor-token",
      "with --backend-token-exchange: delegation (RFC 8693): the gateway gets its own token at the same token " +
        "endpoint (client credentials) and sends it with each exchange as actor_token",
    )
    .option("--backend-client-id <id>", "the gateway's client id at the backend's authorization server")
    .option(
      "--backend-client-secret <secret_id>",
      "a stored secret (`atrium secret create`) holding the client secret (or --backend-client-secret-env; with " +
        "--backend-authorization-code, neither for a public client)",
    )
    .option(
      "--backend-client-secret-env <NAME>",
      "the client secret is the gateway's environment variable NAME (allowed by ATRIUM_GATEWAY_ENV_ALLOW)",
    )
    .option(
      "--backend-client-auth <method>",
      "how the client authenticates with its secret: basic (HTTP Basic, the default), post (in the form body), or, " +
        "with --backend-token-exchange, private-key-jwt (--backend-client-secret then holds a PEM private key)",
    )
    .option("--backend-scope <scope...>", "scopes asked for with the token, or in each user's authorization")
    .option("--backend-audience <text>", "audience parameter sent with the token request (Auth0, Okta)")
    .option("--backend-resource <url>", "resource parameter sent with the token request (RFC 8707)");
}

/** The plan's backend secret from the flags, or undefined when none names one. */
export function backendSecretFromFlags(flags: BackendCredentialFlags): PlanBody["backendSecret"] {
  const grant = grantOf(flags);
  checkGrantSettings(flags, grant);
  if (grant === undefined) return storedOrElicited(flags);
  for (const [key, flag] of Object.entries(NOT_WITH_A_GRANT)) {
    if (flags[key as keyof typeof NOT_WITH_A_GRANT] !== undefined) {
      throw cliErrors.conflictingOptions(
        GRANTS[grant].flag,
        flag,
        `${GRANTS[grant].token} is always sent as 'Authorization: Bearer <token>'; keep one`,
      );
    }
  }
  switch (grant) {
    case "oauth2ClientCredentials":
      return { oauth2ClientCredentials: clientCredentials(flags) };
    case "tokenExchange":
      return { tokenExchange: tokenExchange(flags) };
    case "oauth2AuthorizationCode":
      return { oauth2AuthorizationCode: authorizationCode(flags) };
  }
}

/** The grant the flags choose, if any: a token URL alone means client credentials. */
function grantOf(flags: BackendCredentialFlags): Grant | undefined {
  if (flags.backendAuthorizationCode && flags.backendTokenExchange)
    throw cliErrors.conflictingOptions(
      "--backend-authorization-code",
      "--backend-token-exchange",
      "the backend's token comes from one grant",
    );
  if (flags.backendAuthorizationCode) return "oauth2AuthorizationCode";
  if (flags.backendTokenExchange) return "tokenExchange";
  return flags.backendTokenUrl !== undefined ? "oauth2ClientCredentials" : undefined;
}

/** Refuses a grant's setting without that grant, or with a grant it does not belong to. */
function checkGrantSettings(flags: BackendCredentialFlags, grant: Grant | undefined): void {
  for (const [key, setting] of Object.entries(GRANT_SETTINGS)) {
    if (flags[key as keyof BackendCredentialFlags] === undefined || (grant && setting.grants.includes(grant))) continue;
    // A token URL alone chooses client credentials, not yet a choice against the other grants.
    if (grant === undefined || grant === "oauth2ClientCredentials") {
      const needed = setting.grants.filter((other) => other !== grant);
      throw cliErrors.optionNeedsAnother(
        setting.flag,
        orList(needed.map((other) => GRANTS[other].needs)),
        `it is ${article(orList(setting.grants.map((other) => GRANTS[other].words)))} setting`,
      );
    }
    throw cliErrors.conflictingOptions(
      GRANTS[grant].flag,
      setting.flag,
      `it is not ${article(GRANTS[grant].words)} setting`,
    );
  }
}

/** A stored secret or a credential elicited from each user, in the header and after the prefix given. */
function storedOrElicited(flags: BackendCredentialFlags): PlanBody["backendSecret"] {
  if (flags.backendElicit !== undefined && flags.backendSecret !== undefined)
    throw cliErrors.conflictingOptions("--backend-elicit", "--backend-secret", "the backend secret has one source");
  if (flags.backendElicitSignInClientId !== undefined && flags.backendElicit === undefined)
    throw cliErrors.optionNeedsAnother(
      "--backend-elicit-sign-in-client-id",
      "--backend-elicit <description>",
      "the page it signs users in on is the elicitation page",
    );
  const signIn =
    flags.backendElicitSignInClientId !== undefined ? { signIn: { clientId: flags.backendElicitSignInClientId } } : {};
  const source = flags.backendSecret
    ? { secretId: flags.backendSecret }
    : flags.backendElicit !== undefined
      ? { elicit: { description: flags.backendElicit, ...signIn } }
      : undefined;
  if (!source) return undefined;
  return {
    ...source,
    ...(flags.backendSecretHeader ? { name: flags.backendSecretHeader } : {}),
    ...(flags.backendSecretPrefix ? { prefix: flags.backendSecretPrefix } : {}),
  };
}

function clientCredentials(flags: BackendCredentialFlags): BackendSecret["oauth2ClientCredentials"] {
  const client = clientOf(flags, "oauth2ClientCredentials", ["basic", "post"]);
  return {
    // Defined: it chose this grant.
    tokenUrl: flags.backendTokenUrl as string,
    ...client,
    clientSecret: client.clientSecret ?? missingClientSecret("--backend-token-url"),
    ...(flags.backendAudience ? { audience: flags.backendAudience } : {}),
  };
}

function tokenExchange(flags: BackendCredentialFlags): BackendSecret["tokenExchange"] {
  if (flags.backendIssuer !== undefined && flags.backendTokenUrl !== undefined)
    throw cliErrors.conflictingOptions("--backend-issuer", "--backend-token-url", "the token endpoint is one of them");
  if (!flags.backendTokenUrl && !flags.backendIssuer)
    throw cliErrors.optionNeedsAnother(
      "--backend-token-exchange",
      "--backend-token-url <url> or --backend-issuer <url>",
      "it needs the token endpoint",
    );
  const client = clientOf(flags, "tokenExchange", ["basic", "post", "private-key-jwt"]);
  const clientSecret = client.clientSecret ?? missingClientSecret("--backend-token-exchange");
  const tokenType = flags.backendRequestedTokenType;
  if (tokenType !== undefined && !(tokenType in TOKEN_TYPES))
    throw cliErrors.usage(`--backend-requested-token-type must be access_token or jwt, not '${tokenType}'`);
  return {
    ...(flags.backendTokenUrl ? { tokenUrl: flags.backendTokenUrl } : { issuer: flags.backendIssuer }),
    ...client,
    clientSecret,
    ...(flags.backendAudience ? { audience: flags.backendAudience } : {}),
    ...(tokenType ? { requestedTokenType: TOKEN_TYPES[tokenType] } : {}),
    ...(flags.backendActorToken ? { actorToken: "clientCredentials" as const } : {}),
  };
}

function authorizationCode(flags: BackendCredentialFlags): BackendSecret["oauth2AuthorizationCode"] {
  const { backendIssuer: issuer, backendAuthorizationUrl: authorizationUrl, backendTokenUrl: tokenUrl } = flags;
  if (issuer !== undefined) {
    if (authorizationUrl !== undefined || tokenUrl !== undefined)
      throw cliErrors.conflictingOptions(
        "--backend-issuer",
        authorizationUrl !== undefined ? "--backend-authorization-url" : "--backend-token-url",
        "the issuer's metadata names the endpoints",
      );
  } else if (authorizationUrl === undefined && tokenUrl === undefined) {
    throw cliErrors.optionNeedsAnother(
      "--backend-authorization-code",
      "--backend-issuer <url>, or --backend-authorization-url <url> with --backend-token-url <url>",
      "it needs the authorization server's endpoints",
    );
  } else if (authorizationUrl === undefined) {
    throw cliErrors.optionNeedsAnother(
      "--backend-token-url",
      "--backend-authorization-url <url>",
      "with --backend-authorization-code, users are sent to the authorization endpoint",
    );
  } else if (tokenUrl === undefined) {
    throw cliErrors.optionNeedsAnother(
      "--backend-authorization-url",
      "--backend-token-url <url>",
      "the gateway exchanges each user's code at the token endpoint",
    );
  }
  const client = clientOf(flags, "oauth2AuthorizationCode", ["basic", "post"]);
  // Without a secret the client is public (tokenEndpointAuthMethod none, the control plane's default).
  if (client.tokenEndpointAuthMethod !== undefined && client.clientSecret === undefined)
    throw cliErrors.optionNeedsAnother(
      "--backend-client-auth",
      CLIENT_SECRET_FLAGS,
      "without a client secret the client is public and does not authenticate",
    );
  return {
    ...(issuer !== undefined ? { issuer } : { authorizationUrl, tokenUrl }),
    ...(flags.backendRevocationUrl ? { revocationUrl: flags.backendRevocationUrl } : {}),
    ...client,
    ...(flags.backendAuthorizationDescription ? { description: flags.backendAuthorizationDescription } : {}),
  };
}

/** The client at the token endpoint and what it asks for; its secret when one is given. */
function clientOf<M extends keyof typeof AUTH_METHODS>(flags: BackendCredentialFlags, grant: Grant, methods: M[]) {
  if (!flags.backendClientId)
    throw cliErrors.optionNeedsAnother(GRANTS[grant].flag, "--backend-client-id <id>", "the token endpoint needs it");
  if (flags.backendClientSecret && flags.backendClientSecretEnv)
    throw cliErrors.conflictingOptions("--backend-client-secret", "--backend-client-secret-env", "keep one");
  const clientSecret = flags.backendClientSecret
    ? { secretId: flags.backendClientSecret }
    : flags.backendClientSecretEnv
      ? { env: `\${env:${flags.backendClientSecretEnv}}` }
      : undefined;
  const method = flags.backendClientAuth;
  if (method !== undefined && !isOneOf(method, methods))
    throw cliErrors.usage(`--backend-client-auth must be ${orList(methods)}, not '${method}'`);
  return {
    clientId: flags.backendClientId,
    ...(clientSecret ? { clientSecret } : {}),
    ...(method ? { tokenEndpointAuthMethod: AUTH_METHODS[method] } : {}),
    ...(flags.backendScope ? { scopes: flags.backendScope } : {}),
    ...(flags.backendResource ? { resource: flags.backendResource } : {}),
  };
}

function missingClientSecret(chosenBy: string): never {
  throw cliErrors.optionNeedsAnother(chosenBy, CLIENT_SECRET_FLAGS, "the token endpoint needs the client secret");
}

function isOneOf<T extends string>(value: string, values: readonly T[]): value is T {
  return (values as readonly string[]).includes(value);
}

/** `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

function article(words: string): string {
  return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`;
}
