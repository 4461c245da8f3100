/**
 * Generated from the control plane's OpenAPI document (/api/v1/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run generate --workspace @atrium/ui`.
 */

export interface paths {
    "/api/v1/admin/reencrypt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            activeKeyId: string;
                            alreadyCurrent: number;
                            byPreviousKey: {
                                [key: string]: number;
                            };
                            conflicts: number;
                            reencrypted: number;
                            scanned: number;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** @description Gateway tokens: the FQDNs a registration may advertise, exact or `*.domain`; null allows any. */
                                allowedFqdns: string[] | null;
                                createdAt: string;
                                expiresAt: string;
                                id: string;
                                name: string;
                                /** @description Gateway tokens: labels every registration must carry, with these values; null requires none. */
                                requiredLabels: {
                                    [key: string]: string;
                                } | null;
                                /** @enum {string} */
                                role: "gateway" | "operator" | "admin";
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Gateway tokens: the FQDNs a registration may advertise, exact or `*.domain`; null allows any. */
                        allowedFqdns?: string[] | null;
                        name: string;
                        /** @description Gateway tokens: labels every registration must carry, with these values; null requires none. */
                        requiredLabels?: {
                            [key: string]: string;
                        } | null;
                        /**
                         * @description gateway: register gateways and read their change stream; operator: what the operator reconciles; admin: the organization's records.
                         * @default gateway
                         * @enum {string}
                         */
                        role?: "gateway" | "operator" | "admin";
                        /** @description Days until the token expires. */
                        validityDays: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Gateway tokens: the FQDNs a registration may advertise, exact or `*.domain`; null allows any. */
                            allowedFqdns: string[] | null;
                            createdAt: string;
                            expiresAt: string;
                            id: string;
                            name: string;
                            /** @description Gateway tokens: labels every registration must carry, with these values; null requires none. */
                            requiredLabels: {
                                [key: string]: string;
                            } | null;
                            /** @enum {string} */
                            role: "gateway" | "operator" | "admin";
                            /** @description The value, shown only now. */
                            token: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Gateway tokens: the FQDNs a registration may advertise, exact or `*.domain`; null allows any. */
                            allowedFqdns: string[] | null;
                            createdAt: string;
                            expiresAt: string;
                            id: string;
                            name: string;
                            /** @description Gateway tokens: labels every registration must carry, with these values; null requires none. */
                            requiredLabels: {
                                [key: string]: string;
                            } | null;
                            /** @enum {string} */
                            role: "gateway" | "operator" | "admin";
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configuration-plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /**
                                 * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                                 * @default false
                                 */
                                audit: boolean;
                                backendEndpoint: string;
                                backendSecret?: {
                                    /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                                    elicit?: {
                                        /** @description What the user is asked for. */
                                        description: string;
                                        /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                        signIn?: {
                                            /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                            clientId: string;
                                        };
                                    };
                                    /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * @description Where the secret goes in the backend request.
                                     * @default header
                                     * @enum {string}
                                     */
                                    in: "header" | "query";
                                    /**
                                     * @description Header or query parameter name carrying the secret.
                                     * @default Authorization
                                     */
                                    name: string;
                                    /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                                    oauth2AuthorizationCode?: {
                                        /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                        authorizationUrl?: string;
                                        /** @description The gateway's client id at that authorization server. */
                                        clientId: string;
                                        /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                        clientSecret?: {
                                            /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                            env?: string;
                                            /**
                                             * Format: uuid
                                             * @description A backend secret stored in the control plane.
                                             */
                                            secretId?: string;
                                        };
                                        /** @description What the user is told the authorization is for (the elicitation's message). */
                                        description?: string;
                                        /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                        issuer?: string;
                                        /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                        resource?: string;
                                        /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                        revocationUrl?: string;
                                        /** @description Scopes asked for (the authorization request's scope). */
                                        scopes?: string[];
                                        /**
                                         * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                         * @enum {string}
                                         */
                                        tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                        /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                        tokenUrl?: string;
                                    };
                                    /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                                    oauth2ClientCredentials?: {
                                        /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                        audience?: string;
                                        /** @description The gateway's client id at that authorization server. */
                                        clientId: string;
                                        /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                        clientSecret: {
                                            /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                            env?: string;
                                            /**
                                             * Format: uuid
                                             * @description A backend secret stored in the control plane.
                                             */
                                            secretId?: string;
                                        };
                                        /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                        resource?: string;
                                        /** @description Scopes asked for (the form's scope); none when absent. */
                                        scopes?: string[];
                                        /**
                                         * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                         * @default client_secret_basic
                                         * @enum {string}
                                         */
                                        tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
                                        /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                        tokenUrl: string;
                                    };
                                    /** @description Text put before the secret, for example 'Bearer '. */
                                    prefix?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                    /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                                    tokenExchange?: {
                                        /**
                                         * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                         * @enum {string}
                                         */
                                        actorToken?: "clientCredentials";
                                        /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                        audience?: string;
                                        /** @description The gateway's client id at that authorization server. */
                                        clientId: string;
                                        /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                        clientSecret: {
                                            /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                            env?: string;
                                            /**
                                             * Format: uuid
                                             * @description A backend secret stored in the control plane.
                                             */
                                            secretId?: string;
                                        };
                                        /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                        issuer?: string;
                                        /**
                                         * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                         * @default urn:ietf:params:oauth:token-type:access_token
                                         * @enum {string}
                                         */
                                        requestedTokenType: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                        /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                        resource?: string;
                                        /** @description Scopes asked for (the form's scope); none when absent. */
                                        scopes?: string[];
                                        /**
                                         * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                         * @default client_secret_basic
                                         * @enum {string}
                                         */
                                        tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                        /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                        tokenUrl?: string;
                                    };
                                };
                                /**
                                 * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                                 * @default 30000
                                 */
                                backendTimeoutMs: number;
                                /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                                backendTls?: {
                                    /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                                    caBundle?: string;
                                    /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                                    caFile?: string;
                                    /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                                    clientCertificate?: {
                                        /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                        file?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                                    clientKey?: {
                                        /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                        file?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                                    serverName?: string;
                                    /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                                    trustSystemCAs?: boolean;
                                };
                                /** @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry. */
                                circuitBreaker: {
                                    /**
                                     * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                                     * @default 5
                                     */
                                    consecutiveFailures: number;
                                    /**
                                     * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                                     * @default 30
                                     */
                                    coolDownSeconds: number;
                                    /**
                                     * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                                     * @default true
                                     */
                                    enabled: boolean;
                                };
                                createdAt: string;
                                /**
                                 * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                                 * @default false
                                 */
                                elicitMissingArguments: boolean;
                                /** @description operationIds never exposed as tools. */
                                excludedOperations?: string[];
                                /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                                graphql?: {
                                    /**
                                     * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                                     * @default 2
                                     */
                                    selectionDepth: number;
                                };
                                /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                                grpc?: {
                                    /**
                                     * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                                     * @default 100
                                     */
                                    maxStreamMessages: number;
                                };
                                hasApiKey: boolean;
                                /** @description Which headers cross the gateway, in each direction, and under what name. */
                                headerPolicy?: {
                                    /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                                    forwardRequestHeaders?: string[];
                                    /** @description Backend response headers copied into the tool result; none by default. */
                                    forwardResponseHeaders?: string[];
                                    /** @description Forwarded client headers to send under another name: client name → backend name. */
                                    renameRequestHeaders?: {
                                        [key: string]: string;
                                    };
                                    /** @description Fixed headers added to every backend request. */
                                    setRequestHeaders?: {
                                        [key: string]: string;
                                    };
                                };
                                id: string;
                                /** @description operationIds to expose as tools; all operations when absent. */
                                includedOperations?: string[];
                                /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                                limits?: {
                                    /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                    burst?: number;
                                    /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                    concurrentCalls?: number;
                                    /**
                                     * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                                     * @default plan
                                     * @enum {string}
                                     */
                                    per: "plan" | "caller";
                                    /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                    requestsPerSecond?: number;
                                    /** @description Limits of single tools, by tool name (PerOperation plans only). */
                                    tools?: {
                                        [key: string]: {
                                            /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                            burst?: number;
                                            /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                            concurrentCalls?: number;
                                            /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                            requestsPerSecond?: number;
                                        };
                                    };
                                };
                                /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                                maxResultBytes?: number;
                                name: string;
                                /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                                oauth?: {
                                    /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                                    audience?: string;
                                    /** @description Issuer (iss) that tokens must carry, compared exactly. */
                                    issuer: string;
                                    /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                                    jwksUri?: string;
                                    /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                                    requiredScopes?: string[];
                                    /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                                    resource?: string;
                                    /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                                    toolScopes?: {
                                        [key: string]: string[];
                                    };
                                };
                                serviceId: string;
                                /**
                                 * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                                 * @default PerOperation
                                 * @enum {string}
                                 */
                                toolExposureMode: "PerOperation" | "Discovery";
                                /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                                toolOutputFilters?: {
                                    [key: string]: {
                                        /**
                                         * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                         * @default json
                                         * @enum {string}
                                         */
                                        format: "json" | "toon";
                                        /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                        patches?: {
                                            /** @description move and copy: where the value comes from. */
                                            from?: string;
                                            /**
                                             * @description The RFC 6902 operation.
                                             * @enum {string}
                                             */
                                            op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                            /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                            path: string;
                                            /** @description add, replace and test: the value (any JSON). */
                                            value?: unknown;
                                        }[];
                                        /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                        retain?: string[];
                                    };
                                };
                                /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                                toolOverrides?: {
                                    [key: string]: {
                                        /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                        annotations?: {
                                            /** @description The tool may perform destructive updates. */
                                            destructiveHint?: boolean;
                                            /** @description Calling it again with the same arguments has no further effect. */
                                            idempotentHint?: boolean;
                                            /** @description The tool talks to an open world of external entities. */
                                            openWorldHint?: boolean;
                                            /** @description The tool does not modify its environment. */
                                            readOnlyHint?: boolean;
                                        };
                                        /** @description What the tool does, written for the model. */
                                        description?: string;
                                        /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                        fixedArguments?: {
                                            [key: string]: unknown;
                                        };
                                        /** @description This tool's result budget, instead of the plan's. */
                                        maxResultBytes?: number;
                                        /** @description The name clients see instead; unique among the plan's tools. */
                                        name?: string;
                                        /** @description Human-readable title (also annotations.title). */
                                        title?: string;
                                    };
                                };
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Protect the endpoint with a generated API key (x-atrium-key); not with oauth.
                         * @default false
                         */
                        apiKey?: boolean;
                        /**
                         * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                         * @default false
                         */
                        audit?: boolean;
                        backendEndpoint: string;
                        backendSecret?: {
                            /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                            elicit?: {
                                /** @description What the user is asked for. */
                                description: string;
                                /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                signIn?: {
                                    /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                    clientId: string;
                                };
                            };
                            /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                            env?: string;
                            /**
                             * @description Where the secret goes in the backend request.
                             * @default header
                             * @enum {string}
                             */
                            in?: "header" | "query";
                            /**
                             * @description Header or query parameter name carrying the secret.
                             * @default Authorization
                             */
                            name?: string;
                            /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                            oauth2AuthorizationCode?: {
                                /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                authorizationUrl?: string;
                                /** @description The gateway's client id at that authorization server. */
                                clientId: string;
                                /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                clientSecret?: {
                                    /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description What the user is told the authorization is for (the elicitation's message). */
                                description?: string;
                                /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                issuer?: string;
                                /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                resource?: string;
                                /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                revocationUrl?: string;
                                /** @description Scopes asked for (the authorization request's scope). */
                                scopes?: string[];
                                /**
                                 * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                 * @enum {string}
                                 */
                                tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                tokenUrl?: string;
                            };
                            /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                            oauth2ClientCredentials?: {
                                /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                audience?: string;
                                /** @description The gateway's client id at that authorization server. */
                                clientId: string;
                                /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                clientSecret: {
                                    /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                resource?: string;
                                /** @description Scopes asked for (the form's scope); none when absent. */
                                scopes?: string[];
                                /**
                                 * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                 * @default client_secret_basic
                                 * @enum {string}
                                 */
                                tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
                                /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                tokenUrl: string;
                            };
                            /** @description Text put before the secret, for example 'Bearer '. */
                            prefix?: string;
                            /**
                             * Format: uuid
                             * @description A backend secret stored in the control plane.
                             */
                            secretId?: string;
                            /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                            tokenExchange?: {
                                /**
                                 * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                 * @enum {string}
                                 */
                                actorToken?: "clientCredentials";
                                /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                audience?: string;
                                /** @description The gateway's client id at that authorization server. */
                                clientId: string;
                                /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                clientSecret: {
                                    /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                issuer?: string;
                                /**
                                 * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                 * @default urn:ietf:params:oauth:token-type:access_token
                                 * @enum {string}
                                 */
                                requestedTokenType?: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                resource?: string;
                                /** @description Scopes asked for (the form's scope); none when absent. */
                                scopes?: string[];
                                /**
                                 * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                 * @default client_secret_basic
                                 * @enum {string}
                                 */
                                tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                tokenUrl?: string;
                            };
                        };
                        /**
                         * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                         * @default 30000
                         */
                        backendTimeoutMs?: number;
                        /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                        backendTls?: {
                            /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                            caBundle?: string;
                            /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                            caFile?: string;
                            /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                            clientCertificate?: {
                                /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                file?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                            };
                            /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                            clientKey?: {
                                /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                file?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                            };
                            /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                            serverName?: string;
                            /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                            trustSystemCAs?: boolean;
                        };
                        /**
                         * @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry.
                         * @default {}
                         */
                        circuitBreaker?: {
                            /**
                             * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                             * @default 5
                             */
                            consecutiveFailures?: number;
                            /**
                             * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                             * @default 30
                             */
                            coolDownSeconds?: number;
                            /**
                             * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                             * @default true
                             */
                            enabled?: boolean;
                        };
                        /**
                         * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                         * @default false
                         */
                        elicitMissingArguments?: boolean;
                        /** @description operationIds never exposed as tools. */
                        excludedOperations?: string[];
                        /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                        graphql?: {
                            /**
                             * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                             * @default 2
                             */
                            selectionDepth?: number;
                        };
                        /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                        grpc?: {
                            /**
                             * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                             * @default 100
                             */
                            maxStreamMessages?: number;
                        };
                        /** @description Which headers cross the gateway, in each direction, and under what name. */
                        headerPolicy?: {
                            /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                            forwardRequestHeaders?: string[];
                            /** @description Backend response headers copied into the tool result; none by default. */
                            forwardResponseHeaders?: string[];
                            /** @description Forwarded client headers to send under another name: client name → backend name. */
                            renameRequestHeaders?: {
                                [key: string]: string;
                            };
                            /** @description Fixed headers added to every backend request. */
                            setRequestHeaders?: {
                                [key: string]: string;
                            };
                        };
                        /** @description operationIds to expose as tools; all operations when absent. */
                        includedOperations?: string[];
                        /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                        limits?: {
                            /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                            burst?: number;
                            /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                            concurrentCalls?: number;
                            /**
                             * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                             * @default plan
                             * @enum {string}
                             */
                            per?: "plan" | "caller";
                            /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                            requestsPerSecond?: number;
                            /** @description Limits of single tools, by tool name (PerOperation plans only). */
                            tools?: {
                                [key: string]: {
                                    /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                    burst?: number;
                                    /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                    concurrentCalls?: number;
                                    /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                    requestsPerSecond?: number;
                                };
                            };
                        };
                        /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                        maxResultBytes?: number;
                        name: string;
                        /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                        oauth?: {
                            /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                            audience?: string;
                            /** @description Issuer (iss) that tokens must carry, compared exactly. */
                            issuer: string;
                            /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                            jwksUri?: string;
                            /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                            requiredScopes?: string[];
                            /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                            resource?: string;
                            /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                            toolScopes?: {
                                [key: string]: string[];
                            };
                        };
                        /** Format: uuid */
                        serviceId: string;
                        /**
                         * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                         * @default PerOperation
                         * @enum {string}
                         */
                        toolExposureMode?: "PerOperation" | "Discovery";
                        /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                        toolOutputFilters?: {
                            [key: string]: {
                                /**
                                 * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                 * @default json
                                 * @enum {string}
                                 */
                                format?: "json" | "toon";
                                /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                patches?: {
                                    /** @description move and copy: where the value comes from. */
                                    from?: string;
                                    /**
                                     * @description The RFC 6902 operation.
                                     * @enum {string}
                                     */
                                    op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                    /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                    path: string;
                                    /** @description add, replace and test: the value (any JSON). */
                                    value?: unknown;
                                }[];
                                /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                retain?: string[];
                            };
                        };
                        /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                        toolOverrides?: {
                            [key: string]: {
                                /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                annotations?: {
                                    /** @description The tool may perform destructive updates. */
                                    destructiveHint?: boolean;
                                    /** @description Calling it again with the same arguments has no further effect. */
                                    idempotentHint?: boolean;
                                    /** @description The tool talks to an open world of external entities. */
                                    openWorldHint?: boolean;
                                    /** @description The tool does not modify its environment. */
                                    readOnlyHint?: boolean;
                                };
                                /** @description What the tool does, written for the model. */
                                description?: string;
                                /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                fixedArguments?: {
                                    [key: string]: unknown;
                                };
                                /** @description This tool's result budget, instead of the plan's. */
                                maxResultBytes?: number;
                                /** @description The name clients see instead; unique among the plan's tools. */
                                name?: string;
                                /** @description Human-readable title (also annotations.title). */
                                title?: string;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The new API key, shown only now. */
                            apiKey?: string;
                            /**
                             * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                             * @default false
                             */
                            audit: boolean;
                            backendEndpoint: string;
                            backendSecret?: {
                                /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                                elicit?: {
                                    /** @description What the user is asked for. */
                                    description: string;
                                    /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                    signIn?: {
                                        /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                        clientId: string;
                                    };
                                };
                                /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                                env?: string;
                                /**
                                 * @description Where the secret goes in the backend request.
                                 * @default header
                                 * @enum {string}
                                 */
                                in: "header" | "query";
                                /**
                                 * @description Header or query parameter name carrying the secret.
                                 * @default Authorization
                                 */
                                name: string;
                                /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                                oauth2AuthorizationCode?: {
                                    /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                    authorizationUrl?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                    clientSecret?: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description What the user is told the authorization is for (the elicitation's message). */
                                    description?: string;
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                    revocationUrl?: string;
                                    /** @description Scopes asked for (the authorization request's scope). */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                                /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                                oauth2ClientCredentials?: {
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl: string;
                                };
                                /** @description Text put before the secret, for example 'Bearer '. */
                                prefix?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                                /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                                tokenExchange?: {
                                    /**
                                     * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                     * @enum {string}
                                     */
                                    actorToken?: "clientCredentials";
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /**
                                     * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                     * @default urn:ietf:params:oauth:token-type:access_token
                                     * @enum {string}
                                     */
                                    requestedTokenType: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
                            /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                            backendTls?: {
                                /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                                caBundle?: string;
                                /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                                caFile?: string;
                                /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                                clientCertificate?: {
                                    /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                                clientKey?: {
                                    /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                                serverName?: string;
                                /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                                trustSystemCAs?: boolean;
                            };
                            /** @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry. */
                            circuitBreaker: {
                                /**
                                 * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                                 * @default 5
                                 */
                                consecutiveFailures: number;
                                /**
                                 * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                                 * @default 30
                                 */
                                coolDownSeconds: number;
                                /**
                                 * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                                 * @default true
                                 */
                                enabled: boolean;
                            };
                            createdAt: string;
                            /**
                             * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                             * @default false
                             */
                            elicitMissingArguments: boolean;
                            /** @description operationIds never exposed as tools. */
                            excludedOperations?: string[];
                            /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                            graphql?: {
                                /**
                                 * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                                 * @default 2
                                 */
                                selectionDepth: number;
                            };
                            /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                            grpc?: {
                                /**
                                 * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                                 * @default 100
                                 */
                                maxStreamMessages: number;
                            };
                            hasApiKey: boolean;
                            /** @description Which headers cross the gateway, in each direction, and under what name. */
                            headerPolicy?: {
                                /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                                forwardRequestHeaders?: string[];
                                /** @description Backend response headers copied into the tool result; none by default. */
                                forwardResponseHeaders?: string[];
                                /** @description Forwarded client headers to send under another name: client name → backend name. */
                                renameRequestHeaders?: {
                                    [key: string]: string;
                                };
                                /** @description Fixed headers added to every backend request. */
                                setRequestHeaders?: {
                                    [key: string]: string;
                                };
                            };
                            id: string;
                            /** @description operationIds to expose as tools; all operations when absent. */
                            includedOperations?: string[];
                            /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                            limits?: {
                                /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                burst?: number;
                                /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                concurrentCalls?: number;
                                /**
                                 * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                                 * @default plan
                                 * @enum {string}
                                 */
                                per: "plan" | "caller";
                                /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                requestsPerSecond?: number;
                                /** @description Limits of single tools, by tool name (PerOperation plans only). */
                                tools?: {
                                    [key: string]: {
                                        /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                        burst?: number;
                                        /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                        concurrentCalls?: number;
                                        /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                        requestsPerSecond?: number;
                                    };
                                };
                            };
                            /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                            maxResultBytes?: number;
                            name: string;
                            /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                            oauth?: {
                                /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                                audience?: string;
                                /** @description Issuer (iss) that tokens must carry, compared exactly. */
                                issuer: string;
                                /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                                jwksUri?: string;
                                /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                                requiredScopes?: string[];
                                /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                                resource?: string;
                                /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                                toolScopes?: {
                                    [key: string]: string[];
                                };
                            };
                            serviceId: string;
                            /**
                             * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                             * @default PerOperation
                             * @enum {string}
                             */
                            toolExposureMode: "PerOperation" | "Discovery";
                            /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                            toolOutputFilters?: {
                                [key: string]: {
                                    /**
                                     * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                     * @default json
                                     * @enum {string}
                                     */
                                    format: "json" | "toon";
                                    /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                    patches?: {
                                        /** @description move and copy: where the value comes from. */
                                        from?: string;
                                        /**
                                         * @description The RFC 6902 operation.
                                         * @enum {string}
                                         */
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                        path: string;
                                        /** @description add, replace and test: the value (any JSON). */
                                        value?: unknown;
                                    }[];
                                    /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                    retain?: string[];
                                };
                            };
                            /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                            toolOverrides?: {
                                [key: string]: {
                                    /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                    annotations?: {
                                        /** @description The tool may perform destructive updates. */
                                        destructiveHint?: boolean;
                                        /** @description Calling it again with the same arguments has no further effect. */
                                        idempotentHint?: boolean;
                                        /** @description The tool talks to an open world of external entities. */
                                        openWorldHint?: boolean;
                                        /** @description The tool does not modify its environment. */
                                        readOnlyHint?: boolean;
                                    };
                                    /** @description What the tool does, written for the model. */
                                    description?: string;
                                    /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                    fixedArguments?: {
                                        [key: string]: unknown;
                                    };
                                    /** @description This tool's result budget, instead of the plan's. */
                                    maxResultBytes?: number;
                                    /** @description The name clients see instead; unique among the plan's tools. */
                                    name?: string;
                                    /** @description Human-readable title (also annotations.title). */
                                    title?: string;
                                };
                            };
                            updatedAt: string;
                            /** @description What the written plan gets that was perhaps not meant, without being refused: a tool whose outputSchema cannot be derived through its output filter lists none. Absent when there is nothing to say. */
                            warnings?: string[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configuration-plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                             * @default false
                             */
                            audit: boolean;
                            backendEndpoint: string;
                            backendSecret?: {
                                /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                                elicit?: {
                                    /** @description What the user is asked for. */
                                    description: string;
                                    /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                    signIn?: {
                                        /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                        clientId: string;
                                    };
                                };
                                /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                                env?: string;
                                /**
                                 * @description Where the secret goes in the backend request.
                                 * @default header
                                 * @enum {string}
                                 */
                                in: "header" | "query";
                                /**
                                 * @description Header or query parameter name carrying the secret.
                                 * @default Authorization
                                 */
                                name: string;
                                /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                                oauth2AuthorizationCode?: {
                                    /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                    authorizationUrl?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                    clientSecret?: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description What the user is told the authorization is for (the elicitation's message). */
                                    description?: string;
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                    revocationUrl?: string;
                                    /** @description Scopes asked for (the authorization request's scope). */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                                /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                                oauth2ClientCredentials?: {
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl: string;
                                };
                                /** @description Text put before the secret, for example 'Bearer '. */
                                prefix?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                                /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                                tokenExchange?: {
                                    /**
                                     * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                     * @enum {string}
                                     */
                                    actorToken?: "clientCredentials";
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /**
                                     * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                     * @default urn:ietf:params:oauth:token-type:access_token
                                     * @enum {string}
                                     */
                                    requestedTokenType: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
                            /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                            backendTls?: {
                                /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                                caBundle?: string;
                                /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                                caFile?: string;
                                /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                                clientCertificate?: {
                                    /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                                clientKey?: {
                                    /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                                serverName?: string;
                                /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                                trustSystemCAs?: boolean;
                            };
                            /** @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry. */
                            circuitBreaker: {
                                /**
                                 * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                                 * @default 5
                                 */
                                consecutiveFailures: number;
                                /**
                                 * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                                 * @default 30
                                 */
                                coolDownSeconds: number;
                                /**
                                 * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                                 * @default true
                                 */
                                enabled: boolean;
                            };
                            createdAt: string;
                            /**
                             * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                             * @default false
                             */
                            elicitMissingArguments: boolean;
                            /** @description operationIds never exposed as tools. */
                            excludedOperations?: string[];
                            /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                            graphql?: {
                                /**
                                 * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                                 * @default 2
                                 */
                                selectionDepth: number;
                            };
                            /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                            grpc?: {
                                /**
                                 * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                                 * @default 100
                                 */
                                maxStreamMessages: number;
                            };
                            hasApiKey: boolean;
                            /** @description Which headers cross the gateway, in each direction, and under what name. */
                            headerPolicy?: {
                                /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                                forwardRequestHeaders?: string[];
                                /** @description Backend response headers copied into the tool result; none by default. */
                                forwardResponseHeaders?: string[];
                                /** @description Forwarded client headers to send under another name: client name → backend name. */
                                renameRequestHeaders?: {
                                    [key: string]: string;
                                };
                                /** @description Fixed headers added to every backend request. */
                                setRequestHeaders?: {
                                    [key: string]: string;
                                };
                            };
                            id: string;
                            /** @description operationIds to expose as tools; all operations when absent. */
                            includedOperations?: string[];
                            /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                            limits?: {
                                /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                burst?: number;
                                /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                concurrentCalls?: number;
                                /**
                                 * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                                 * @default plan
                                 * @enum {string}
                                 */
                                per: "plan" | "caller";
                                /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                requestsPerSecond?: number;
                                /** @description Limits of single tools, by tool name (PerOperation plans only). */
                                tools?: {
                                    [key: string]: {
                                        /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                        burst?: number;
                                        /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                        concurrentCalls?: number;
                                        /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                        requestsPerSecond?: number;
                                    };
                                };
                            };
                            /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                            maxResultBytes?: number;
                            name: string;
                            /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                            oauth?: {
                                /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                                audience?: string;
                                /** @description Issuer (iss) that tokens must carry, compared exactly. */
                                issuer: string;
                                /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                                jwksUri?: string;
                                /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                                requiredScopes?: string[];
                                /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                                resource?: string;
                                /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                                toolScopes?: {
                                    [key: string]: string[];
                                };
                            };
                            serviceId: string;
                            /**
                             * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                             * @default PerOperation
                             * @enum {string}
                             */
                            toolExposureMode: "PerOperation" | "Discovery";
                            /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                            toolOutputFilters?: {
                                [key: string]: {
                                    /**
                                     * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                     * @default json
                                     * @enum {string}
                                     */
                                    format: "json" | "toon";
                                    /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                    patches?: {
                                        /** @description move and copy: where the value comes from. */
                                        from?: string;
                                        /**
                                         * @description The RFC 6902 operation.
                                         * @enum {string}
                                         */
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                        path: string;
                                        /** @description add, replace and test: the value (any JSON). */
                                        value?: unknown;
                                    }[];
                                    /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                    retain?: string[];
                                };
                            };
                            /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                            toolOverrides?: {
                                [key: string]: {
                                    /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                    annotations?: {
                                        /** @description The tool may perform destructive updates. */
                                        destructiveHint?: boolean;
                                        /** @description Calling it again with the same arguments has no further effect. */
                                        idempotentHint?: boolean;
                                        /** @description The tool talks to an open world of external entities. */
                                        openWorldHint?: boolean;
                                        /** @description The tool does not modify its environment. */
                                        readOnlyHint?: boolean;
                                    };
                                    /** @description What the tool does, written for the model. */
                                    description?: string;
                                    /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                    fixedArguments?: {
                                        [key: string]: unknown;
                                    };
                                    /** @description This tool's result budget, instead of the plan's. */
                                    maxResultBytes?: number;
                                    /** @description The name clients see instead; unique among the plan's tools. */
                                    name?: string;
                                    /** @description Human-readable title (also annotations.title). */
                                    title?: string;
                                };
                            };
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Protect the endpoint with a generated API key (x-atrium-key); not with oauth.
                         * @default false
                         */
                        apiKey?: boolean;
                        /**
                         * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                         * @default false
                         */
                        audit?: boolean;
                        backendEndpoint: string;
                        backendSecret?: {
                            /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                            elicit?: {
                                /** @description What the user is asked for. */
                                description: string;
                                /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                signIn?: {
                                    /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                    clientId: string;
                                };
                            };
                            /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                            env?: string;
                            /**
                             * @description Where the secret goes in the backend request.
                             * @default header
                             * @enum {string}
                             */
                            in?: "header" | "query";
                            /**
                             * @description Header or query parameter name carrying the secret.
                             * @default Authorization
                             */
                            name?: string;
                            /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                            oauth2AuthorizationCode?: {
                                /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                authorizationUrl?: string;
                                /** @description The gateway's client id at that authorization server. */
                                clientId: string;
                                /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                clientSecret?: {
                                    /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description What the user is told the authorization is for (the elicitation's message). */
                                description?: string;
                                /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                issuer?: string;
                                /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                resource?: string;
                                /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                revocationUrl?: string;
                                /** @description Scopes asked for (the authorization request's scope). */
                                scopes?: string[];
                                /**
                                 * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                 * @enum {string}
                                 */
                                tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                tokenUrl?: string;
                            };
                            /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                            oauth2ClientCredentials?: {
                                /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                audience?: string;
                                /** @description The gateway's client id at that authorization server. */
                                clientId: string;
                                /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                clientSecret: {
                                    /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                resource?: string;
                                /** @description Scopes asked for (the form's scope); none when absent. */
                                scopes?: string[];
                                /**
                                 * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                 * @default client_secret_basic
                                 * @enum {string}
                                 */
                                tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post";
                                /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                tokenUrl: string;
                            };
                            /** @description Text put before the secret, for example 'Bearer '. */
                            prefix?: string;
                            /**
                             * Format: uuid
                             * @description A backend secret stored in the control plane.
                             */
                            secretId?: string;
                            /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                            tokenExchange?: {
                                /**
                                 * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                 * @enum {string}
                                 */
                                actorToken?: "clientCredentials";
                                /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                audience?: string;
                                /** @description The gateway's client id at that authorization server. */
                                clientId: string;
                                /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                clientSecret: {
                                    /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                    env?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                issuer?: string;
                                /**
                                 * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                 * @default urn:ietf:params:oauth:token-type:access_token
                                 * @enum {string}
                                 */
                                requestedTokenType?: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                resource?: string;
                                /** @description Scopes asked for (the form's scope); none when absent. */
                                scopes?: string[];
                                /**
                                 * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                 * @default client_secret_basic
                                 * @enum {string}
                                 */
                                tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                tokenUrl?: string;
                            };
                        };
                        /**
                         * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                         * @default 30000
                         */
                        backendTimeoutMs?: number;
                        /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                        backendTls?: {
                            /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                            caBundle?: string;
                            /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                            caFile?: string;
                            /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                            clientCertificate?: {
                                /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                file?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                            };
                            /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                            clientKey?: {
                                /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                file?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                            };
                            /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                            serverName?: string;
                            /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                            trustSystemCAs?: boolean;
                        };
                        /**
                         * @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry.
                         * @default {}
                         */
                        circuitBreaker?: {
                            /**
                             * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                             * @default 5
                             */
                            consecutiveFailures?: number;
                            /**
                             * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                             * @default 30
                             */
                            coolDownSeconds?: number;
                            /**
                             * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                             * @default true
                             */
                            enabled?: boolean;
                        };
                        /**
                         * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                         * @default false
                         */
                        elicitMissingArguments?: boolean;
                        /** @description operationIds never exposed as tools. */
                        excludedOperations?: string[];
                        /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                        graphql?: {
                            /**
                             * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                             * @default 2
                             */
                            selectionDepth?: number;
                        };
                        /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                        grpc?: {
                            /**
                             * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                             * @default 100
                             */
                            maxStreamMessages?: number;
                        };
                        /** @description Which headers cross the gateway, in each direction, and under what name. */
                        headerPolicy?: {
                            /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                            forwardRequestHeaders?: string[];
                            /** @description Backend response headers copied into the tool result; none by default. */
                            forwardResponseHeaders?: string[];
                            /** @description Forwarded client headers to send under another name: client name → backend name. */
                            renameRequestHeaders?: {
                                [key: string]: string;
                            };
                            /** @description Fixed headers added to every backend request. */
                            setRequestHeaders?: {
                                [key: string]: string;
                            };
                        };
                        /** @description operationIds to expose as tools; all operations when absent. */
                        includedOperations?: string[];
                        /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                        limits?: {
                            /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                            burst?: number;
                            /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                            concurrentCalls?: number;
                            /**
                             * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                             * @default plan
                             * @enum {string}
                             */
                            per?: "plan" | "caller";
                            /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                            requestsPerSecond?: number;
                            /** @description Limits of single tools, by tool name (PerOperation plans only). */
                            tools?: {
                                [key: string]: {
                                    /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                    burst?: number;
                                    /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                    concurrentCalls?: number;
                                    /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                    requestsPerSecond?: number;
                                };
                            };
                        };
                        /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                        maxResultBytes?: number;
                        name: string;
                        /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                        oauth?: {
                            /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                            audience?: string;
                            /** @description Issuer (iss) that tokens must carry, compared exactly. */
                            issuer: string;
                            /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                            jwksUri?: string;
                            /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                            requiredScopes?: string[];
                            /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                            resource?: string;
                            /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                            toolScopes?: {
                                [key: string]: string[];
                            };
                        };
                        /** Format: uuid */
                        serviceId: string;
                        /**
                         * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                         * @default PerOperation
                         * @enum {string}
                         */
                        toolExposureMode?: "PerOperation" | "Discovery";
                        /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                        toolOutputFilters?: {
                            [key: string]: {
                                /**
                                 * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                 * @default json
                                 * @enum {string}
                                 */
                                format?: "json" | "toon";
                                /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                patches?: {
                                    /** @description move and copy: where the value comes from. */
                                    from?: string;
                                    /**
                                     * @description The RFC 6902 operation.
                                     * @enum {string}
                                     */
                                    op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                    /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                    path: string;
                                    /** @description add, replace and test: the value (any JSON). */
                                    value?: unknown;
                                }[];
                                /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                retain?: string[];
                            };
                        };
                        /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                        toolOverrides?: {
                            [key: string]: {
                                /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                annotations?: {
                                    /** @description The tool may perform destructive updates. */
                                    destructiveHint?: boolean;
                                    /** @description Calling it again with the same arguments has no further effect. */
                                    idempotentHint?: boolean;
                                    /** @description The tool talks to an open world of external entities. */
                                    openWorldHint?: boolean;
                                    /** @description The tool does not modify its environment. */
                                    readOnlyHint?: boolean;
                                };
                                /** @description What the tool does, written for the model. */
                                description?: string;
                                /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                fixedArguments?: {
                                    [key: string]: unknown;
                                };
                                /** @description This tool's result budget, instead of the plan's. */
                                maxResultBytes?: number;
                                /** @description The name clients see instead; unique among the plan's tools. */
                                name?: string;
                                /** @description Human-readable title (also annotations.title). */
                                title?: string;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The new API key, shown only now. */
                            apiKey?: string;
                            /**
                             * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                             * @default false
                             */
                            audit: boolean;
                            backendEndpoint: string;
                            backendSecret?: {
                                /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                                elicit?: {
                                    /** @description What the user is asked for. */
                                    description: string;
                                    /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                    signIn?: {
                                        /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                        clientId: string;
                                    };
                                };
                                /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                                env?: string;
                                /**
                                 * @description Where the secret goes in the backend request.
                                 * @default header
                                 * @enum {string}
                                 */
                                in: "header" | "query";
                                /**
                                 * @description Header or query parameter name carrying the secret.
                                 * @default Authorization
                                 */
                                name: string;
                                /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                                oauth2AuthorizationCode?: {
                                    /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                    authorizationUrl?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                    clientSecret?: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description What the user is told the authorization is for (the elicitation's message). */
                                    description?: string;
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                    revocationUrl?: string;
                                    /** @description Scopes asked for (the authorization request's scope). */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                                /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                                oauth2ClientCredentials?: {
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl: string;
                                };
                                /** @description Text put before the secret, for example 'Bearer '. */
                                prefix?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                                /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                                tokenExchange?: {
                                    /**
                                     * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                     * @enum {string}
                                     */
                                    actorToken?: "clientCredentials";
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /**
                                     * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                     * @default urn:ietf:params:oauth:token-type:access_token
                                     * @enum {string}
                                     */
                                    requestedTokenType: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
                            /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                            backendTls?: {
                                /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                                caBundle?: string;
                                /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                                caFile?: string;
                                /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                                clientCertificate?: {
                                    /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                                clientKey?: {
                                    /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                                serverName?: string;
                                /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                                trustSystemCAs?: boolean;
                            };
                            /** @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry. */
                            circuitBreaker: {
                                /**
                                 * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                                 * @default 5
                                 */
                                consecutiveFailures: number;
                                /**
                                 * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                                 * @default 30
                                 */
                                coolDownSeconds: number;
                                /**
                                 * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                                 * @default true
                                 */
                                enabled: boolean;
                            };
                            createdAt: string;
                            /**
                             * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                             * @default false
                             */
                            elicitMissingArguments: boolean;
                            /** @description operationIds never exposed as tools. */
                            excludedOperations?: string[];
                            /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                            graphql?: {
                                /**
                                 * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                                 * @default 2
                                 */
                                selectionDepth: number;
                            };
                            /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                            grpc?: {
                                /**
                                 * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                                 * @default 100
                                 */
                                maxStreamMessages: number;
                            };
                            hasApiKey: boolean;
                            /** @description Which headers cross the gateway, in each direction, and under what name. */
                            headerPolicy?: {
                                /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                                forwardRequestHeaders?: string[];
                                /** @description Backend response headers copied into the tool result; none by default. */
                                forwardResponseHeaders?: string[];
                                /** @description Forwarded client headers to send under another name: client name → backend name. */
                                renameRequestHeaders?: {
                                    [key: string]: string;
                                };
                                /** @description Fixed headers added to every backend request. */
                                setRequestHeaders?: {
                                    [key: string]: string;
                                };
                            };
                            id: string;
                            /** @description operationIds to expose as tools; all operations when absent. */
                            includedOperations?: string[];
                            /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                            limits?: {
                                /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                burst?: number;
                                /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                concurrentCalls?: number;
                                /**
                                 * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                                 * @default plan
                                 * @enum {string}
                                 */
                                per: "plan" | "caller";
                                /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                requestsPerSecond?: number;
                                /** @description Limits of single tools, by tool name (PerOperation plans only). */
                                tools?: {
                                    [key: string]: {
                                        /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                        burst?: number;
                                        /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                        concurrentCalls?: number;
                                        /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                        requestsPerSecond?: number;
                                    };
                                };
                            };
                            /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                            maxResultBytes?: number;
                            name: string;
                            /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                            oauth?: {
                                /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                                audience?: string;
                                /** @description Issuer (iss) that tokens must carry, compared exactly. */
                                issuer: string;
                                /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                                jwksUri?: string;
                                /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                                requiredScopes?: string[];
                                /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                                resource?: string;
                                /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                                toolScopes?: {
                                    [key: string]: string[];
                                };
                            };
                            serviceId: string;
                            /**
                             * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                             * @default PerOperation
                             * @enum {string}
                             */
                            toolExposureMode: "PerOperation" | "Discovery";
                            /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                            toolOutputFilters?: {
                                [key: string]: {
                                    /**
                                     * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                     * @default json
                                     * @enum {string}
                                     */
                                    format: "json" | "toon";
                                    /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                    patches?: {
                                        /** @description move and copy: where the value comes from. */
                                        from?: string;
                                        /**
                                         * @description The RFC 6902 operation.
                                         * @enum {string}
                                         */
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                        path: string;
                                        /** @description add, replace and test: the value (any JSON). */
                                        value?: unknown;
                                    }[];
                                    /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                    retain?: string[];
                                };
                            };
                            /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                            toolOverrides?: {
                                [key: string]: {
                                    /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                    annotations?: {
                                        /** @description The tool may perform destructive updates. */
                                        destructiveHint?: boolean;
                                        /** @description Calling it again with the same arguments has no further effect. */
                                        idempotentHint?: boolean;
                                        /** @description The tool talks to an open world of external entities. */
                                        openWorldHint?: boolean;
                                        /** @description The tool does not modify its environment. */
                                        readOnlyHint?: boolean;
                                    };
                                    /** @description What the tool does, written for the model. */
                                    description?: string;
                                    /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                    fixedArguments?: {
                                        [key: string]: unknown;
                                    };
                                    /** @description This tool's result budget, instead of the plan's. */
                                    maxResultBytes?: number;
                                    /** @description The name clients see instead; unique among the plan's tools. */
                                    name?: string;
                                    /** @description Human-readable title (also annotations.title). */
                                    title?: string;
                                };
                            };
                            updatedAt: string;
                            /** @description What the written plan gets that was perhaps not meant, without being refused: a tool whose outputSchema cannot be derived through its output filter lists none. Absent when there is nothing to say. */
                            warnings?: string[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configuration-plans/{id}/renew-api-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The new API key, shown only now. */
                            apiKey?: string;
                            /**
                             * @description Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.
                             * @default false
                             */
                            audit: boolean;
                            backendEndpoint: string;
                            backendSecret?: {
                                /** @description Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user (every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused). */
                                elicit?: {
                                    /** @description What the user is asked for. */
                                    description: string;
                                    /** @description Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's token named. Needs oauth. */
                                    signIn?: {
                                        /** @description The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using authorization code with PKCE S256 and scope openid, whose redirect URI is <gateway origin>/elicitations/callback for every origin users reach the gateways by. */
                                        clientId: string;
                                    };
                                };
                                /** @description A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime. */
                                env?: string;
                                /**
                                 * @description Where the secret goes in the backend request.
                                 * @default header
                                 * @enum {string}
                                 */
                                in: "header" | "query";
                                /**
                                 * @description Header or query parameter name carrying the secret.
                                 * @default Authorization
                                 */
                                name: string;
                                /** @description Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose redirect URI is <gateway origin>/elicitations/authorized, and keeps their access and refresh tokens sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway cluster key. */
                                oauth2AuthorizationCode?: {
                                    /** @description Authorization endpoint of the backend's authorization server, where the user's browser is sent; with tokenUrl, instead of issuer. */
                                    authorizationUrl?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env; none for a public client. Sent only to the token endpoint. */
                                    clientSecret?: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description What the user is told the authorization is for (the elicitation's message). */
                                    description?: string;
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, read from its metadata when not set; none: the grant is only forgotten. */
                                    revocationUrl?: string;
                                    /** @description Scopes asked for (the authorization request's scope). */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects the code either way).
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                                /** @description Get a token from the backend's authorization server (client credentials grant) and send it as 'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires. */
                                oauth2ClientCredentials?: {
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret: exactly one of secretId, env. Sent only to the token endpoint. */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl: string;
                                };
                                /** @description Text put before the secret, for example 'Bearer '. */
                                prefix?: string;
                                /**
                                 * Format: uuid
                                 * @description A backend secret stored in the control plane.
                                 */
                                secretId?: string;
                                /** @description Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken. */
                                tokenExchange?: {
                                    /**
                                     * @description Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its own at the same token endpoint (client credentials grant, the same client and client authentication; no scope, audience or resource), kept per plan on each replica until shortly before it expires, and send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.
                                     * @enum {string}
                                     */
                                    actorToken?: "clientCredentials";
                                    /** @description Sent as the form's audience parameter (Auth0, Okta style); not sent when absent. */
                                    audience?: string;
                                    /** @description The gateway's client id at that authorization server. */
                                    clientId: string;
                                    /** @description The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of secretId, env. Sent only to the token endpoint (a private key never leaves the gateway). */
                                    clientSecret: {
                                        /** @description The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime. */
                                        env?: string;
                                        /**
                                         * Format: uuid
                                         * @description A backend secret stored in the control plane.
                                         */
                                        secretId?: string;
                                    };
                                    /** @description Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata (/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set. */
                                    issuer?: string;
                                    /**
                                     * @description The requested_token_type: an access token or a JWT, sent to the backend as a bearer.
                                     * @default urn:ietf:params:oauth:token-type:access_token
                                     * @enum {string}
                                     */
                                    requestedTokenType: "urn:ietf:params:oauth:token-type:access_token" | "urn:ietf:params:oauth:token-type:jwt";
                                    /** @description Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent. */
                                    resource?: string;
                                    /** @description Scopes asked for (the form's scope); none when absent. */
                                    scopes?: string[];
                                    /**
                                     * @description How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 or Ed25519 EdDSA).
                                     * @default client_secret_basic
                                     * @enum {string}
                                     */
                                    tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
                                    /** @description Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects). */
                                    tokenUrl?: string;
                                };
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
                            /** @description TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the call with a tool result saying which, on an https and a grpcs backend alike. */
                            backendTls?: {
                                /** @description PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret). */
                                caBundle?: string;
                                /** @description A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a cert-manager ca.crt), re-read when it changes. */
                                caFile?: string;
                                /** @description The client certificate (PEM, its chain after it): exactly one of secretId, file. */
                                clientCertificate?: {
                                    /** @description A PEM file on the gateway holding the client certificate (PEM, its chain after it), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The client certificate's private key (PEM, unencrypted): exactly one of secretId, file. */
                                clientKey?: {
                                    /** @description A PEM file on the gateway holding the client certificate's private key (PEM, unencrypted), re-read when it changes (a certificate rotated by cert-manager or a SPIFFE helper is used without restart). */
                                    file?: string;
                                    /**
                                     * Format: uuid
                                     * @description A backend secret stored in the control plane.
                                     */
                                    secretId?: string;
                                };
                                /** @description The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when absent. */
                                serverName?: string;
                                /** @description With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's CAs. Without either, the system CAs are trusted and this stays unset. */
                                trustSystemCAs?: boolean;
                            };
                            /** @description Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers an error result (isError) and resources/read a JSON-RPC error, each saying when to retry. */
                            circuitBreaker: {
                                /**
                                 * @description Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer of any status is a success) after which the breaker opens.
                                 * @default 5
                                 */
                                consecutiveFailures: number;
                                /**
                                 * @description Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial call goes through: success closes the breaker, failure opens it for another cool-down.
                                 * @default 30
                                 */
                                coolDownSeconds: number;
                                /**
                                 * @description Whether the gateway stops calling a backend it cannot reach; on by default.
                                 * @default true
                                 */
                                enabled: boolean;
                            };
                            createdAt: string;
                            /**
                             * @description MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared form-mode elicitation, is answered input_required with a form per missing primitive argument (or object of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.
                             * @default false
                             */
                            elicitMissingArguments: boolean;
                            /** @description operationIds never exposed as tools. */
                            excludedOperations?: string[];
                            /** @description Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated. */
                            graphql?: {
                                /**
                                 * @description Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is not entered again (cycles cut); fields with required arguments are never selected.
                                 * @default 2
                                 */
                                selectionDepth: number;
                            };
                            /** @description Only on a plan whose Service is of kind grpc: how the gateway calls its methods. */
                            grpc?: {
                                /**
                                 * @description The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is {messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.
                                 * @default 100
                                 */
                                maxStreamMessages: number;
                            };
                            hasApiKey: boolean;
                            /** @description Which headers cross the gateway, in each direction, and under what name. */
                            headerPolicy?: {
                                /** @description Client request headers passed on to the backend (case-insensitive); none by default. */
                                forwardRequestHeaders?: string[];
                                /** @description Backend response headers copied into the tool result; none by default. */
                                forwardResponseHeaders?: string[];
                                /** @description Forwarded client headers to send under another name: client name → backend name. */
                                renameRequestHeaders?: {
                                    [key: string]: string;
                                };
                                /** @description Fixed headers added to every backend request. */
                                setRequestHeaders?: {
                                    [key: string]: string;
                                };
                            };
                            id: string;
                            /** @description operationIds to expose as tools; all operations when absent. */
                            includedOperations?: string[];
                            /** @description Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP 429 with Retry-After; past a tool's, an isError result. */
                            limits?: {
                                /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                burst?: number;
                                /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                concurrentCalls?: number;
                                /**
                                 * @description Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject (issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).
                                 * @default plan
                                 * @enum {string}
                                 */
                                per: "plan" | "caller";
                                /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                requestsPerSecond?: number;
                                /** @description Limits of single tools, by tool name (PerOperation plans only). */
                                tools?: {
                                    [key: string]: {
                                        /** @description Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when absent. Needs requestsPerSecond. */
                                        burst?: number;
                                        /** @description Calls waiting for the backend at once on each gateway replica; no cap when absent. */
                                        concurrentCalls?: number;
                                        /** @description Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one call every 2 s); no rate limit when absent. */
                                        requestsPerSecond?: number;
                                    };
                                };
                            };
                            /** @description Budget of a tool result, in bytes of the CallToolResult as JSON (UTF-8, no whitespace: content, structuredContent, isError and _meta, before the protocol's framing). Over it, the gateway trims the longest arrays of the answer from their end (never below an outputSchema's minItems, never inside a value) and says how many items it left out, in a text block and in _meta['dev.atrium/trimmed']; an isError result keeps its first line and the 512 characters after it (its message), even past the budget. An answer that does not fit even with every array trimmed becomes an isError result saying so. Applies to backend answers, after the output filter; no budget when absent. */
                            maxResultBytes?: number;
                            name: string;
                            /** @description OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid token from this issuer (Authorization: Bearer). */
                            oauth?: {
                                /** @description Audience (aud) that tokens must carry; the endpoint's resource URL when absent. */
                                audience?: string;
                                /** @description Issuer (iss) that tokens must carry, compared exactly. */
                                issuer: string;
                                /** @description Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata. */
                                jwksUri?: string;
                                /** @description Scopes every token must carry (scope or scp claim); a token without one is refused with 403. */
                                requiredScopes?: string[];
                                /** @description Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; the URL clients call when absent. A token's resource claim, when present, must equal it. */
                                resource?: string;
                                /** @description Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope. */
                                toolScopes?: {
                                    [key: string]: string[];
                                };
                            };
                            serviceId: string;
                            /**
                             * @description PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, invoke) for APIs too large to list.
                             * @default PerOperation
                             * @enum {string}
                             */
                            toolExposureMode: "PerOperation" | "Discovery";
                            /** @description Tool name (as the Service's tools are named without overrides, custom tools included) → output filter, applied by the gateway to the JSON result of a successful call. An isError result keeps its error text; data beside it (a GraphQL answer's partial data) is shown only filtered, and a 2xx answer read as an error keeps only the gateway's first block. The tool's outputSchema is derived through retain and patches; where a patch makes that impossible, the tool lists no outputSchema and the write says so in its warnings. A filtered tool whose answer is not JSON within the size limit returns an isError result instead of unfiltered text. */
                            toolOutputFilters?: {
                                [key: string]: {
                                    /**
                                     * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                     * @default json
                                     * @enum {string}
                                     */
                                    format: "json" | "toon";
                                    /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                    patches?: {
                                        /** @description move and copy: where the value comes from. */
                                        from?: string;
                                        /**
                                         * @description The RFC 6902 operation.
                                         * @enum {string}
                                         */
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                        path: string;
                                        /** @description add, replace and test: the value (any JSON). */
                                        value?: unknown;
                                    }[];
                                    /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                    retain?: string[];
                                };
                            };
                            /** @description Tool name (as the Service's tools are named without overrides) → what this plan changes in it: name, title, description, annotations, fixed arguments, result budget. oauth.toolScopes and limits.tools name a tool as clients see it (after a rename). */
                            toolOverrides?: {
                                [key: string]: {
                                    /** @description MCP tool annotations: each hint given replaces the tool's own, the others stay. */
                                    annotations?: {
                                        /** @description The tool may perform destructive updates. */
                                        destructiveHint?: boolean;
                                        /** @description Calling it again with the same arguments has no further effect. */
                                        idempotentHint?: boolean;
                                        /** @description The tool talks to an open world of external entities. */
                                        openWorldHint?: boolean;
                                        /** @description The tool does not modify its environment. */
                                        readOnlyHint?: boolean;
                                    };
                                    /** @description What the tool does, written for the model. */
                                    description?: string;
                                    /** @description Argument name (as tools/list shows it) → value: the argument is removed from the tool's inputSchema and every call sends this value; a call that sets it is refused. Each value must match the argument's schema. */
                                    fixedArguments?: {
                                        [key: string]: unknown;
                                    };
                                    /** @description This tool's result budget, instead of the plan's. */
                                    maxResultBytes?: number;
                                    /** @description The name clients see instead; unique among the plan's tools. */
                                    name?: string;
                                    /** @description Human-readable title (also annotations.title). */
                                    title?: string;
                                };
                            };
                            updatedAt: string;
                            /** @description What the written plan gets that was perhaps not meant, without being refused: a tool whose outputSchema cannot be derived through its output filter lists none. Absent when there is nothing to say. */
                            warnings?: string[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/custom-tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                id: string;
                                name: string;
                                /** Format: uuid */
                                serviceId: string;
                                /** @description The tools, added to those derived from the Service's operations. */
                                tools: {
                                    /** @description MCP tool annotations; hints for clients, not guarantees. */
                                    annotations?: {
                                        /** @description The tool may perform destructive updates. */
                                        destructiveHint?: boolean;
                                        /** @description Calling it again with the same arguments has no further effect. */
                                        idempotentHint?: boolean;
                                        /** @description The tool talks to an open world of external entities. */
                                        openWorldHint?: boolean;
                                        /** @description The tool does not modify its environment. */
                                        readOnlyHint?: boolean;
                                    };
                                    /** @description What the tool does, for the model. */
                                    description: string;
                                    /** @description A custom tool's GraphQL document, as the control plane resolved it. */
                                    graphql?: {
                                        /** @description A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments. */
                                        document: string;
                                        /** @description The root fields the operation selects, comma-separated. */
                                        fieldName: string;
                                        /** @description The operation the gateway runs (sent as operationName). */
                                        operationName: string;
                                        /**
                                         * @description The operation's type: a query is read-only.
                                         * @enum {string}
                                         */
                                        operationType: "query" | "mutation";
                                        /** @description JSON Schema (an object schema) of the answer's data; derived from the selection when absent. */
                                        outputSchema?: {
                                            /**
                                             * @description "object": the answer's data is a JSON object.
                                             * @enum {string}
                                             */
                                            type: "object";
                                        } & {
                                            [key: string]: unknown;
                                        };
                                    };
                                    /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                    inputSchema?: {
                                        /** @description "object" when given: the arguments are a JSON object. */
                                        type?: string;
                                    } & {
                                        [key: string]: unknown;
                                    };
                                    /** @description Tool name, unique within the Exposition's tools. */
                                    name: string;
                                    /** @description The backend request the tool makes (an openapi Service). */
                                    request?: {
                                        /** @description Request body template; {{argument}} placeholders are JSON-encoded. */
                                        body?: string;
                                        /** @description Headers; values may hold {{argument}}. */
                                        headers?: {
                                            [key: string]: string;
                                        };
                                        /**
                                         * @description HTTP method.
                                         * @enum {string}
                                         */
                                        method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                                        /** @description Path under the backend endpoint; {{argument}} placeholders are URL-encoded. */
                                        path: string;
                                        /** @description Query parameters; values may hold {{argument}}. */
                                        query?: {
                                            [key: string]: string;
                                        };
                                    };
                                    /** @description Human-readable title. */
                                    title?: string;
                                }[];
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** Format: uuid */
                        serviceId: string;
                        /** @description The tools, added to those derived from the Service's operations. */
                        tools: {
                            /** @description MCP tool annotations; hints for clients, not guarantees. */
                            annotations?: {
                                /** @description The tool may perform destructive updates. */
                                destructiveHint?: boolean;
                                /** @description Calling it again with the same arguments has no further effect. */
                                idempotentHint?: boolean;
                                /** @description The tool talks to an open world of external entities. */
                                openWorldHint?: boolean;
                                /** @description The tool does not modify its environment. */
                                readOnlyHint?: boolean;
                            };
                            /** @description What the tool does, for the model. */
                            description: string;
                            /** @description The tool runs its own GraphQL document on a graphql Service's endpoint (instead of an HTTP request template). The operation must be named; inputSchema is derived from its variables when absent. */
                            graphql?: {
                                /** @description A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments. */
                                document: string;
                                /** @description Which named operation of the document to run; needed only when it holds several. */
                                operationName?: string;
                                /** @description JSON Schema (an object schema) of the answer's data; derived from the selection when absent. */
                                outputSchema?: {
                                    /**
                                     * @description "object": the answer's data is a JSON object.
                                     * @enum {string}
                                     */
                                    type: "object";
                                } & {
                                    [key: string]: unknown;
                                };
                            };
                            /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                            inputSchema?: {
                                /** @description "object" when given: the arguments are a JSON object. */
                                type?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description Tool name, unique within the Exposition's tools. */
                            name: string;
                            /** @description The backend request the tool makes (an openapi Service). */
                            request?: {
                                /** @description Request body template; {{argument}} placeholders are JSON-encoded. */
                                body?: string;
                                /** @description Headers; values may hold {{argument}}. */
                                headers?: {
                                    [key: string]: string;
                                };
                                /**
                                 * @description HTTP method.
                                 * @enum {string}
                                 */
                                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                                /** @description Path under the backend endpoint; {{argument}} placeholders are URL-encoded. */
                                path: string;
                                /** @description Query parameters; values may hold {{argument}}. */
                                query?: {
                                    [key: string]: string;
                                };
                            };
                            /** @description Human-readable title. */
                            title?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** Format: uuid */
                            serviceId: string;
                            /** @description The tools, added to those derived from the Service's operations. */
                            tools: {
                                /** @description MCP tool annotations; hints for clients, not guarantees. */
                                annotations?: {
                                    /** @description The tool may perform destructive updates. */
                                    destructiveHint?: boolean;
                                    /** @description Calling it again with the same arguments has no further effect. */
                                    idempotentHint?: boolean;
                                    /** @description The tool talks to an open world of external entities. */
                                    openWorldHint?: boolean;
                                    /** @description The tool does not modify its environment. */
                                    readOnlyHint?: boolean;
                                };
                                /** @description What the tool does, for the model. */
                                description: string;
                                /** @description A custom tool's GraphQL document, as the control plane resolved it. */
                                graphql?: {
                                    /** @description A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments. */
                                    document: string;
                                    /** @description The root fields the operation selects, comma-separated. */
                                    fieldName: string;
                                    /** @description The operation the gateway runs (sent as operationName). */
                                    operationName: string;
                                    /**
                                     * @description The operation's type: a query is read-only.
                                     * @enum {string}
                                     */
                                    operationType: "query" | "mutation";
                                    /** @description JSON Schema (an object schema) of the answer's data; derived from the selection when absent. */
                                    outputSchema?: {
                                        /**
                                         * @description "object": the answer's data is a JSON object.
                                         * @enum {string}
                                         */
                                        type: "object";
                                    } & {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                inputSchema?: {
                                    /** @description "object" when given: the arguments are a JSON object. */
                                    type?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description Tool name, unique within the Exposition's tools. */
                                name: string;
                                /** @description The backend request the tool makes (an openapi Service). */
                                request?: {
                                    /** @description Request body template; {{argument}} placeholders are JSON-encoded. */
                                    body?: string;
                                    /** @description Headers; values may hold {{argument}}. */
                                    headers?: {
                                        [key: string]: string;
                                    };
                                    /**
                                     * @description HTTP method.
                                     * @enum {string}
                                     */
                                    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                                    /** @description Path under the backend endpoint; {{argument}} placeholders are URL-encoded. */
                                    path: string;
                                    /** @description Query parameters; values may hold {{argument}}. */
                                    query?: {
                                        [key: string]: string;
                                    };
                                };
                                /** @description Human-readable title. */
                                title?: string;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/custom-tools/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** Format: uuid */
                            serviceId: string;
                            /** @description The tools, added to those derived from the Service's operations. */
                            tools: {
                                /** @description MCP tool annotations; hints for clients, not guarantees. */
                                annotations?: {
                                    /** @description The tool may perform destructive updates. */
                                    destructiveHint?: boolean;
                                    /** @description Calling it again with the same arguments has no further effect. */
                                    idempotentHint?: boolean;
                                    /** @description The tool talks to an open world of external entities. */
                                    openWorldHint?: boolean;
                                    /** @description The tool does not modify its environment. */
                                    readOnlyHint?: boolean;
                                };
                                /** @description What the tool does, for the model. */
                                description: string;
                                /** @description A custom tool's GraphQL document, as the control plane resolved it. */
                                graphql?: {
                                    /** @description A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments. */
                                    document: string;
                                    /** @description The root fields the operation selects, comma-separated. */
                                    fieldName: string;
                                    /** @description The operation the gateway runs (sent as operationName). */
                                    operationName: string;
                                    /**
                                     * @description The operation's type: a query is read-only.
                                     * @enum {string}
                                     */
                                    operationType: "query" | "mutation";
                                    /** @description JSON Schema (an object schema) of the answer's data; derived from the selection when absent. */
                                    outputSchema?: {
                                        /**
                                         * @description "object": the answer's data is a JSON object.
                                         * @enum {string}
                                         */
                                        type: "object";
                                    } & {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                inputSchema?: {
                                    /** @description "object" when given: the arguments are a JSON object. */
                                    type?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description Tool name, unique within the Exposition's tools. */
                                name: string;
                                /** @description The backend request the tool makes (an openapi Service). */
                                request?: {
                                    /** @description Request body template; {{argument}} placeholders are JSON-encoded. */
                                    body?: string;
                                    /** @description Headers; values may hold {{argument}}. */
                                    headers?: {
                                        [key: string]: string;
                                    };
                                    /**
                                     * @description HTTP method.
                                     * @enum {string}
                                     */
                                    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                                    /** @description Path under the backend endpoint; {{argument}} placeholders are URL-encoded. */
                                    path: string;
                                    /** @description Query parameters; values may hold {{argument}}. */
                                    query?: {
                                        [key: string]: string;
                                    };
                                };
                                /** @description Human-readable title. */
                                title?: string;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** Format: uuid */
                        serviceId: string;
                        /** @description The tools, added to those derived from the Service's operations. */
                        tools: {
                            /** @description MCP tool annotations; hints for clients, not guarantees. */
                            annotations?: {
                                /** @description The tool may perform destructive updates. */
                                destructiveHint?: boolean;
                                /** @description Calling it again with the same arguments has no further effect. */
                                idempotentHint?: boolean;
                                /** @description The tool talks to an open world of external entities. */
                                openWorldHint?: boolean;
                                /** @description The tool does not modify its environment. */
                                readOnlyHint?: boolean;
                            };
                            /** @description What the tool does, for the model. */
                            description: string;
                            /** @description The tool runs its own GraphQL document on a graphql Service's endpoint (instead of an HTTP request template). The operation must be named; inputSchema is derived from its variables when absent. */
                            graphql?: {
                                /** @description A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments. */
                                document: string;
                                /** @description Which named operation of the document to run; needed only when it holds several. */
                                operationName?: string;
                                /** @description JSON Schema (an object schema) of the answer's data; derived from the selection when absent. */
                                outputSchema?: {
                                    /**
                                     * @description "object": the answer's data is a JSON object.
                                     * @enum {string}
                                     */
                                    type: "object";
                                } & {
                                    [key: string]: unknown;
                                };
                            };
                            /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                            inputSchema?: {
                                /** @description "object" when given: the arguments are a JSON object. */
                                type?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description Tool name, unique within the Exposition's tools. */
                            name: string;
                            /** @description The backend request the tool makes (an openapi Service). */
                            request?: {
                                /** @description Request body template; {{argument}} placeholders are JSON-encoded. */
                                body?: string;
                                /** @description Headers; values may hold {{argument}}. */
                                headers?: {
                                    [key: string]: string;
                                };
                                /**
                                 * @description HTTP method.
                                 * @enum {string}
                                 */
                                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                                /** @description Path under the backend endpoint; {{argument}} placeholders are URL-encoded. */
                                path: string;
                                /** @description Query parameters; values may hold {{argument}}. */
                                query?: {
                                    [key: string]: string;
                                };
                            };
                            /** @description Human-readable title. */
                            title?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** Format: uuid */
                            serviceId: string;
                            /** @description The tools, added to those derived from the Service's operations. */
                            tools: {
                                /** @description MCP tool annotations; hints for clients, not guarantees. */
                                annotations?: {
                                    /** @description The tool may perform destructive updates. */
                                    destructiveHint?: boolean;
                                    /** @description Calling it again with the same arguments has no further effect. */
                                    idempotentHint?: boolean;
                                    /** @description The tool talks to an open world of external entities. */
                                    openWorldHint?: boolean;
                                    /** @description The tool does not modify its environment. */
                                    readOnlyHint?: boolean;
                                };
                                /** @description What the tool does, for the model. */
                                description: string;
                                /** @description A custom tool's GraphQL document, as the control plane resolved it. */
                                graphql?: {
                                    /** @description A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments. */
                                    document: string;
                                    /** @description The root fields the operation selects, comma-separated. */
                                    fieldName: string;
                                    /** @description The operation the gateway runs (sent as operationName). */
                                    operationName: string;
                                    /**
                                     * @description The operation's type: a query is read-only.
                                     * @enum {string}
                                     */
                                    operationType: "query" | "mutation";
                                    /** @description JSON Schema (an object schema) of the answer's data; derived from the selection when absent. */
                                    outputSchema?: {
                                        /**
                                         * @description "object": the answer's data is a JSON object.
                                         * @enum {string}
                                         */
                                        type: "object";
                                    } & {
                                        [key: string]: unknown;
                                    };
                                };
                                /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                inputSchema?: {
                                    /** @description "object" when given: the arguments are a JSON object. */
                                    type?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description Tool name, unique within the Exposition's tools. */
                                name: string;
                                /** @description The backend request the tool makes (an openapi Service). */
                                request?: {
                                    /** @description Request body template; {{argument}} placeholders are JSON-encoded. */
                                    body?: string;
                                    /** @description Headers; values may hold {{argument}}. */
                                    headers?: {
                                        [key: string]: string;
                                    };
                                    /**
                                     * @description HTTP method.
                                     * @enum {string}
                                     */
                                    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                                    /** @description Path under the backend endpoint; {{argument}} placeholders are URL-encoded. */
                                    path: string;
                                    /** @description Query parameters; values may hold {{argument}}. */
                                    query?: {
                                        [key: string]: string;
                                    };
                                };
                                /** @description Human-readable title. */
                                title?: string;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/elicitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expiresAt: string;
                        /** Format: uuid */
                        expositionId: string;
                        idHash: string;
                        principal: string;
                        tool: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            expiresAt: string;
                            expositionId: string;
                            idHash: string;
                            principal: string;
                            tool: string;
                            usedAt: string | null;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/elicitations/{idHash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    idHash: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            expiresAt: string;
                            expositionId: string;
                            idHash: string;
                            principal: string;
                            tool: string;
                            usedAt: string | null;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/elicitations/{idHash}/consume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    idHash: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            expiresAt: string;
                            expositionId: string;
                            idHash: string;
                            principal: string;
                            tool: string;
                            usedAt: string | null;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/expositions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                /** Format: uuid */
                                configurationPlanId: string;
                                createdAt: string;
                                /** @description FQDNs of the live gateways serving it. */
                                endpoints: string[];
                                gatewayGroup: {
                                    id: number;
                                    name: string;
                                };
                                gatewayGroupId: number;
                                id: string;
                                /** @description Name in the MCP path /mcp/<organization>/<name>. */
                                name: string;
                                /** @description Gateways that received it but do not serve it, and why (empty when every gateway serves it). */
                                problems: {
                                    /** @description When the gateway first reported this message. */
                                    at: string;
                                    gatewayId: string;
                                    message: string;
                                }[];
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        configurationPlanId: string;
                        gatewayGroupId: number;
                        /** @description Name in the MCP path /mcp/<organization>/<name>. */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            configurationPlanId: string;
                            createdAt: string;
                            /** @description FQDNs of the live gateways serving it. */
                            endpoints: string[];
                            gatewayGroup: {
                                id: number;
                                name: string;
                            };
                            gatewayGroupId: number;
                            id: string;
                            /** @description Name in the MCP path /mcp/<organization>/<name>. */
                            name: string;
                            /** @description Gateways that received it but do not serve it, and why (empty when every gateway serves it). */
                            problems: {
                                /** @description When the gateway first reported this message. */
                                at: string;
                                gatewayId: string;
                                message: string;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/expositions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            configurationPlanId: string;
                            createdAt: string;
                            /** @description FQDNs of the live gateways serving it. */
                            endpoints: string[];
                            gatewayGroup: {
                                id: number;
                                name: string;
                            };
                            gatewayGroupId: number;
                            id: string;
                            /** @description Name in the MCP path /mcp/<organization>/<name>. */
                            name: string;
                            /** @description Gateways that received it but do not serve it, and why (empty when every gateway serves it). */
                            problems: {
                                /** @description When the gateway first reported this message. */
                                at: string;
                                gatewayId: string;
                                message: string;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        configurationPlanId: string;
                        gatewayGroupId: number;
                        /** @description Name in the MCP path /mcp/<organization>/<name>. */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            configurationPlanId: string;
                            createdAt: string;
                            /** @description FQDNs of the live gateways serving it. */
                            endpoints: string[];
                            gatewayGroup: {
                                id: number;
                                name: string;
                            };
                            gatewayGroupId: number;
                            id: string;
                            /** @description Name in the MCP path /mcp/<organization>/<name>. */
                            name: string;
                            /** @description Gateways that received it but do not serve it, and why (empty when every gateway serves it). */
                            problems: {
                                /** @description When the gateway first reported this message. */
                                at: string;
                                gatewayId: string;
                                message: string;
                            }[];
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/expositions/{id}/elicited-credentials/{principal}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    principal: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ciphertext: string;
                            createdAt: string;
                            expositionId: string;
                            principal: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    principal: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        ciphertext: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ciphertext: string;
                            createdAt: string;
                            expositionId: string;
                            principal: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    principal: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/expositions/{id}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                annotations?: {
                                    [key: string]: unknown;
                                };
                                description?: string;
                                /** @description How one tool's JSON result is shaped: retain, then patches, then format. */
                                filter?: {
                                    /**
                                     * @description Notation of the result's text block: json, or toon (Token-Oriented Object Notation, compact for models). structuredContent stays JSON either way.
                                     * @default json
                                     * @enum {string}
                                     */
                                    format: "json" | "toon";
                                    /** @description RFC 6902 operations applied in order to what retain kept. An operation whose path (or from) does not exist is skipped; a test that fails stops the sequence and the document stays as it was before the patches. At most 1000. */
                                    patches?: {
                                        /** @description move and copy: where the value comes from. */
                                        from?: string;
                                        /**
                                         * @description The RFC 6902 operation.
                                         * @enum {string}
                                         */
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description Where it applies (RFC 6901; '*' is an ordinary token here). */
                                        path: string;
                                        /** @description add, replace and test: the value (any JSON). */
                                        value?: unknown;
                                    }[];
                                    /** @description JSON Pointers (RFC 6901) into the tool's structuredContent to keep; everything else is dropped. Extension: a '*' token is every item of an array or member of an object (/items/*\/name). A pointer that matches nothing keeps nothing; array items keep their order, those left with nothing are dropped. Keeps all when absent. At most 1000. */
                                    retain?: string[];
                                };
                                /** @description Arguments the plan fixes: removed from the input schema, always sent with this value. */
                                fixedArguments?: {
                                    [key: string]: unknown;
                                };
                                /** @description The tool's name on its Service (before toolOverrides). */
                                from: string;
                                /** @description The effective input schema clients see: the tool's own (an operation's parameters and body, a custom tool's inputSchema) without the fixed arguments; absent when it cannot be built (gateways leave that tool out). */
                                inputSchema?: {
                                    [key: string]: unknown;
                                };
                                /** @enum {string} */
                                kind: "operation" | "custom";
                                /** @description The result budget: the tool's override, else the plan's. */
                                maxResultBytes?: number;
                                /** @description The name clients see (after toolOverrides). */
                                name: string;
                                /** @description The outputSchema clients see: the tool's own (an operation's JSON answer's, a GraphQL custom tool's selection's), derived through the filter; absent when the tool has none or it cannot be derived. */
                                outputSchema?: {
                                    [key: string]: unknown;
                                };
                                /** @description Why no outputSchema can be derived through the filter. */
                                outputSchemaProblem?: string;
                                title?: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateway-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                /** @description What the gateways of this group serve. */
                                description?: string;
                                id: number;
                                /** @description Labels a gateway must advertise, all of them with these values. Empty selects every gateway. */
                                labels?: {
                                    [key: string]: string;
                                };
                                /** @description Further requirements on the gateways' labels; all must hold. */
                                matchExpressions?: {
                                    /** @description Label key the requirement applies to. */
                                    key: string;
                                    /**
                                     * @description In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only.
                                     * @enum {string}
                                     */
                                    operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
                                    /** @description Values for In and NotIn; empty for Exists and DoesNotExist. */
                                    values?: string[];
                                }[];
                                name: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What the gateways of this group serve. */
                        description?: string;
                        /** @description Labels a gateway must advertise, all of them with these values. Empty selects every gateway. */
                        labels?: {
                            [key: string]: string;
                        };
                        /** @description Further requirements on the gateways' labels; all must hold. */
                        matchExpressions?: {
                            /** @description Label key the requirement applies to. */
                            key: string;
                            /**
                             * @description In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only.
                             * @enum {string}
                             */
                            operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
                            /** @description Values for In and NotIn; empty for Exists and DoesNotExist. */
                            values?: string[];
                        }[];
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            /** @description What the gateways of this group serve. */
                            description?: string;
                            id: number;
                            /** @description Labels a gateway must advertise, all of them with these values. Empty selects every gateway. */
                            labels?: {
                                [key: string]: string;
                            };
                            /** @description Further requirements on the gateways' labels; all must hold. */
                            matchExpressions?: {
                                /** @description Label key the requirement applies to. */
                                key: string;
                                /**
                                 * @description In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only.
                                 * @enum {string}
                                 */
                                operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
                                /** @description Values for In and NotIn; empty for Exists and DoesNotExist. */
                                values?: string[];
                            }[];
                            name: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateway-groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            /** @description What the gateways of this group serve. */
                            description?: string;
                            id: number;
                            /** @description Labels a gateway must advertise, all of them with these values. Empty selects every gateway. */
                            labels?: {
                                [key: string]: string;
                            };
                            /** @description Further requirements on the gateways' labels; all must hold. */
                            matchExpressions?: {
                                /** @description Label key the requirement applies to. */
                                key: string;
                                /**
                                 * @description In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only.
                                 * @enum {string}
                                 */
                                operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
                                /** @description Values for In and NotIn; empty for Exists and DoesNotExist. */
                                values?: string[];
                            }[];
                            name: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What the gateways of this group serve. */
                        description?: string;
                        /** @description Labels a gateway must advertise, all of them with these values. Empty selects every gateway. */
                        labels?: {
                            [key: string]: string;
                        };
                        /** @description Further requirements on the gateways' labels; all must hold. */
                        matchExpressions?: {
                            /** @description Label key the requirement applies to. */
                            key: string;
                            /**
                             * @description In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only.
                             * @enum {string}
                             */
                            operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
                            /** @description Values for In and NotIn; empty for Exists and DoesNotExist. */
                            values?: string[];
                        }[];
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            /** @description What the gateways of this group serve. */
                            description?: string;
                            id: number;
                            /** @description Labels a gateway must advertise, all of them with these values. Empty selects every gateway. */
                            labels?: {
                                [key: string]: string;
                            };
                            /** @description Further requirements on the gateways' labels; all must hold. */
                            matchExpressions?: {
                                /** @description Label key the requirement applies to. */
                                key: string;
                                /**
                                 * @description In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only.
                                 * @enum {string}
                                 */
                                operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
                                /** @description Values for In and NotIn; empty for Exists and DoesNotExist. */
                                values?: string[];
                            }[];
                            name: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                fqdns: string[];
                                /** @enum {string} */
                                health: "UP" | "STALE";
                                id: string;
                                labels: {
                                    [key: string]: string;
                                };
                                lastSeenAt: string;
                                registeredAt: string;
                                version: string | null;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: {
                    /** @description Random per gateway process; kept across its restarts. */
                    instanceId?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/{id}/ended-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        endedSessions: {
                            /** Format: date-time */
                            expiresAt: string;
                            /** Format: uuid */
                            expositionId: string;
                            sessionHash: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Random per gateway process; kept across its restarts. */
                        instanceId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/{id}/problems": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Random per gateway process; kept across its restarts. */
                        instanceId: string;
                        problems: {
                            /** Format: uuid */
                            expositionId: string;
                            message: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query: {
                    instanceId: string;
                    since?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        fqdns: string[];
                        id: string;
                        /** @description Random per gateway process; kept across its restarts. */
                        instanceId: string;
                        /** @default {} */
                        labels?: {
                            [key: string]: string;
                        };
                        version?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            healthIntervalSeconds: number;
                            heartbeatSeconds?: number;
                            id: string;
                            organization?: {
                                id: string;
                                name: string;
                            };
                            staleAfterSeconds: number;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database: string;
                            node: string;
                            organizationId: string;
                            version: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Organization name. */
                        organization: string;
                        password: string;
                        username: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiresAt: string;
                            organizationId: string;
                            token: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        admin: {
                            password: string;
                            username: string;
                        };
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            admin: {
                                id: string;
                                /** @enum {string} */
                                role: "admin" | "member";
                                username: string;
                            };
                            id: string;
                            name: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                id: string;
                                name: string;
                                /** @description The prompts (at most 100 per record). */
                                prompts: {
                                    /** @description Arguments substituted into the messages. */
                                    arguments?: {
                                        /** @description What the argument is. */
                                        description?: string;
                                        /** @description Argument name, used as {{name}} in messages. */
                                        name: string;
                                        /**
                                         * @description Whether prompts/get refuses a call without it.
                                         * @default false
                                         */
                                        required: boolean;
                                        /** @description Values completion/complete suggests for this argument (those starting with what was typed). */
                                        values?: string[];
                                    }[];
                                    /** @description What the prompt is for. */
                                    description?: string;
                                    /** @description The messages prompts/get returns (at most 32). */
                                    messages: {
                                        /** @description An audio message. */
                                        audio?: {
                                            /** @description The audio, base64-encoded (at most 1048576 characters). */
                                            data: string;
                                            /** @description MIME type of the audio, for example audio/wav. */
                                            mimeType: string;
                                        };
                                        /** @description An image message. */
                                        image?: {
                                            /** @description The image, base64-encoded (at most 1048576 characters). */
                                            data: string;
                                            /** @description MIME type of the image, for example image/png. */
                                            mimeType: string;
                                        };
                                        /** @description A resource embedded in the message: its URI and its text or binary content. */
                                        resource?: {
                                            /** @description Binary content, base64-encoded (at most 1048576 characters). */
                                            blob?: string;
                                            /** @description MIME type of the content. */
                                            mimeType?: string;
                                            /** @description Text content; {{argument}} placeholders are substituted. */
                                            text?: string;
                                            /** @description URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute. */
                                            uri: string;
                                        };
                                        /**
                                         * @description Who speaks.
                                         * @enum {string}
                                         */
                                        role: "user" | "assistant";
                                        /** @description Message text; {{argument}} placeholders are substituted. */
                                        text?: string;
                                    }[];
                                    /** @description Prompt name, unique within the Exposition's prompts. */
                                    name: string;
                                    /** @description Human-readable title. */
                                    title?: string;
                                }[];
                                /** Format: uuid */
                                serviceId: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description The prompts (at most 100 per record). */
                        prompts: {
                            /** @description Arguments substituted into the messages. */
                            arguments?: {
                                /** @description What the argument is. */
                                description?: string;
                                /** @description Argument name, used as {{name}} in messages. */
                                name: string;
                                /**
                                 * @description Whether prompts/get refuses a call without it.
                                 * @default false
                                 */
                                required?: boolean;
                                /** @description Values completion/complete suggests for this argument (those starting with what was typed). */
                                values?: string[];
                            }[];
                            /** @description What the prompt is for. */
                            description?: string;
                            /** @description The messages prompts/get returns (at most 32). */
                            messages: {
                                /** @description An audio message. */
                                audio?: {
                                    /** @description The audio, base64-encoded (at most 1048576 characters). */
                                    data: string;
                                    /** @description MIME type of the audio, for example audio/wav. */
                                    mimeType: string;
                                };
                                /** @description An image message. */
                                image?: {
                                    /** @description The image, base64-encoded (at most 1048576 characters). */
                                    data: string;
                                    /** @description MIME type of the image, for example image/png. */
                                    mimeType: string;
                                };
                                /** @description A resource embedded in the message: its URI and its text or binary content. */
                                resource?: {
                                    /** @description Binary content, base64-encoded (at most 1048576 characters). */
                                    blob?: string;
                                    /** @description MIME type of the content. */
                                    mimeType?: string;
                                    /** @description Text content; {{argument}} placeholders are substituted. */
                                    text?: string;
                                    /** @description URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute. */
                                    uri: string;
                                };
                                /**
                                 * @description Who speaks.
                                 * @enum {string}
                                 */
                                role: "user" | "assistant";
                                /** @description Message text; {{argument}} placeholders are substituted. */
                                text?: string;
                            }[];
                            /** @description Prompt name, unique within the Exposition's prompts. */
                            name: string;
                            /** @description Human-readable title. */
                            title?: string;
                        }[];
                        /** Format: uuid */
                        serviceId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description The prompts (at most 100 per record). */
                            prompts: {
                                /** @description Arguments substituted into the messages. */
                                arguments?: {
                                    /** @description What the argument is. */
                                    description?: string;
                                    /** @description Argument name, used as {{name}} in messages. */
                                    name: string;
                                    /**
                                     * @description Whether prompts/get refuses a call without it.
                                     * @default false
                                     */
                                    required: boolean;
                                    /** @description Values completion/complete suggests for this argument (those starting with what was typed). */
                                    values?: string[];
                                }[];
                                /** @description What the prompt is for. */
                                description?: string;
                                /** @description The messages prompts/get returns (at most 32). */
                                messages: {
                                    /** @description An audio message. */
                                    audio?: {
                                        /** @description The audio, base64-encoded (at most 1048576 characters). */
                                        data: string;
                                        /** @description MIME type of the audio, for example audio/wav. */
                                        mimeType: string;
                                    };
                                    /** @description An image message. */
                                    image?: {
                                        /** @description The image, base64-encoded (at most 1048576 characters). */
                                        data: string;
                                        /** @description MIME type of the image, for example image/png. */
                                        mimeType: string;
                                    };
                                    /** @description A resource embedded in the message: its URI and its text or binary content. */
                                    resource?: {
                                        /** @description Binary content, base64-encoded (at most 1048576 characters). */
                                        blob?: string;
                                        /** @description MIME type of the content. */
                                        mimeType?: string;
                                        /** @description Text content; {{argument}} placeholders are substituted. */
                                        text?: string;
                                        /** @description URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute. */
                                        uri: string;
                                    };
                                    /**
                                     * @description Who speaks.
                                     * @enum {string}
                                     */
                                    role: "user" | "assistant";
                                    /** @description Message text; {{argument}} placeholders are substituted. */
                                    text?: string;
                                }[];
                                /** @description Prompt name, unique within the Exposition's prompts. */
                                name: string;
                                /** @description Human-readable title. */
                                title?: string;
                            }[];
                            /** Format: uuid */
                            serviceId: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prompts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description The prompts (at most 100 per record). */
                            prompts: {
                                /** @description Arguments substituted into the messages. */
                                arguments?: {
                                    /** @description What the argument is. */
                                    description?: string;
                                    /** @description Argument name, used as {{name}} in messages. */
                                    name: string;
                                    /**
                                     * @description Whether prompts/get refuses a call without it.
                                     * @default false
                                     */
                                    required: boolean;
                                    /** @description Values completion/complete suggests for this argument (those starting with what was typed). */
                                    values?: string[];
                                }[];
                                /** @description What the prompt is for. */
                                description?: string;
                                /** @description The messages prompts/get returns (at most 32). */
                                messages: {
                                    /** @description An audio message. */
                                    audio?: {
                                        /** @description The audio, base64-encoded (at most 1048576 characters). */
                                        data: string;
                                        /** @description MIME type of the audio, for example audio/wav. */
                                        mimeType: string;
                                    };
                                    /** @description An image message. */
                                    image?: {
                                        /** @description The image, base64-encoded (at most 1048576 characters). */
                                        data: string;
                                        /** @description MIME type of the image, for example image/png. */
                                        mimeType: string;
                                    };
                                    /** @description A resource embedded in the message: its URI and its text or binary content. */
                                    resource?: {
                                        /** @description Binary content, base64-encoded (at most 1048576 characters). */
                                        blob?: string;
                                        /** @description MIME type of the content. */
                                        mimeType?: string;
                                        /** @description Text content; {{argument}} placeholders are substituted. */
                                        text?: string;
                                        /** @description URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute. */
                                        uri: string;
                                    };
                                    /**
                                     * @description Who speaks.
                                     * @enum {string}
                                     */
                                    role: "user" | "assistant";
                                    /** @description Message text; {{argument}} placeholders are substituted. */
                                    text?: string;
                                }[];
                                /** @description Prompt name, unique within the Exposition's prompts. */
                                name: string;
                                /** @description Human-readable title. */
                                title?: string;
                            }[];
                            /** Format: uuid */
                            serviceId: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description The prompts (at most 100 per record). */
                        prompts: {
                            /** @description Arguments substituted into the messages. */
                            arguments?: {
                                /** @description What the argument is. */
                                description?: string;
                                /** @description Argument name, used as {{name}} in messages. */
                                name: string;
                                /**
                                 * @description Whether prompts/get refuses a call without it.
                                 * @default false
                                 */
                                required?: boolean;
                                /** @description Values completion/complete suggests for this argument (those starting with what was typed). */
                                values?: string[];
                            }[];
                            /** @description What the prompt is for. */
                            description?: string;
                            /** @description The messages prompts/get returns (at most 32). */
                            messages: {
                                /** @description An audio message. */
                                audio?: {
                                    /** @description The audio, base64-encoded (at most 1048576 characters). */
                                    data: string;
                                    /** @description MIME type of the audio, for example audio/wav. */
                                    mimeType: string;
                                };
                                /** @description An image message. */
                                image?: {
                                    /** @description The image, base64-encoded (at most 1048576 characters). */
                                    data: string;
                                    /** @description MIME type of the image, for example image/png. */
                                    mimeType: string;
                                };
                                /** @description A resource embedded in the message: its URI and its text or binary content. */
                                resource?: {
                                    /** @description Binary content, base64-encoded (at most 1048576 characters). */
                                    blob?: string;
                                    /** @description MIME type of the content. */
                                    mimeType?: string;
                                    /** @description Text content; {{argument}} placeholders are substituted. */
                                    text?: string;
                                    /** @description URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute. */
                                    uri: string;
                                };
                                /**
                                 * @description Who speaks.
                                 * @enum {string}
                                 */
                                role: "user" | "assistant";
                                /** @description Message text; {{argument}} placeholders are substituted. */
                                text?: string;
                            }[];
                            /** @description Prompt name, unique within the Exposition's prompts. */
                            name: string;
                            /** @description Human-readable title. */
                            title?: string;
                        }[];
                        /** Format: uuid */
                        serviceId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description The prompts (at most 100 per record). */
                            prompts: {
                                /** @description Arguments substituted into the messages. */
                                arguments?: {
                                    /** @description What the argument is. */
                                    description?: string;
                                    /** @description Argument name, used as {{name}} in messages. */
                                    name: string;
                                    /**
                                     * @description Whether prompts/get refuses a call without it.
                                     * @default false
                                     */
                                    required: boolean;
                                    /** @description Values completion/complete suggests for this argument (those starting with what was typed). */
                                    values?: string[];
                                }[];
                                /** @description What the prompt is for. */
                                description?: string;
                                /** @description The messages prompts/get returns (at most 32). */
                                messages: {
                                    /** @description An audio message. */
                                    audio?: {
                                        /** @description The audio, base64-encoded (at most 1048576 characters). */
                                        data: string;
                                        /** @description MIME type of the audio, for example audio/wav. */
                                        mimeType: string;
                                    };
                                    /** @description An image message. */
                                    image?: {
                                        /** @description The image, base64-encoded (at most 1048576 characters). */
                                        data: string;
                                        /** @description MIME type of the image, for example image/png. */
                                        mimeType: string;
                                    };
                                    /** @description A resource embedded in the message: its URI and its text or binary content. */
                                    resource?: {
                                        /** @description Binary content, base64-encoded (at most 1048576 characters). */
                                        blob?: string;
                                        /** @description MIME type of the content. */
                                        mimeType?: string;
                                        /** @description Text content; {{argument}} placeholders are substituted. */
                                        text?: string;
                                        /** @description URI of the resource; {{argument}} placeholders are substituted, and the result must be absolute. */
                                        uri: string;
                                    };
                                    /**
                                     * @description Who speaks.
                                     * @enum {string}
                                     */
                                    role: "user" | "assistant";
                                    /** @description Message text; {{argument}} placeholders are substituted. */
                                    text?: string;
                                }[];
                                /** @description Prompt name, unique within the Exposition's prompts. */
                                name: string;
                                /** @description Human-readable title. */
                                title?: string;
                            }[];
                            /** Format: uuid */
                            serviceId: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                id: string;
                                name: string;
                                /** @description Resources with a fixed URI. */
                                resources?: {
                                    /** @description What the resource holds. */
                                    description?: string;
                                    /** @description Content read from the backend when the resource is read. */
                                    fromBackend?: {
                                        /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                        path: string;
                                        /** @description While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user. */
                                        pollSeconds?: number;
                                    };
                                    /** @description MIME type of the content. */
                                    mimeType?: string;
                                    /** @description Name of the resource, unique within this list. */
                                    name: string;
                                    /** @description Fixed text content. */
                                    text?: string;
                                    /** @description Human-readable title. */
                                    title?: string;
                                    /** @description URI clients read the resource by. */
                                    uri: string;
                                }[];
                                /** @description Resources addressed by a URI template. */
                                resourceTemplates?: {
                                    /** @description What the resource holds. */
                                    description?: string;
                                    /** @description Content read from the backend when the resource is read. */
                                    fromBackend: {
                                        /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                        path: string;
                                    };
                                    /** @description MIME type of the content. */
                                    mimeType?: string;
                                    /** @description Name of the resource, unique within this list. */
                                    name: string;
                                    /** @description Human-readable title. */
                                    title?: string;
                                    /** @description RFC 6570 URI template, for example docs://pets/{id}. */
                                    uriTemplate: string;
                                }[];
                                /** Format: uuid */
                                serviceId: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description Resources with a fixed URI. */
                        resources?: {
                            /** @description What the resource holds. */
                            description?: string;
                            /** @description Content read from the backend when the resource is read. */
                            fromBackend?: {
                                /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                path: string;
                                /** @description While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user. */
                                pollSeconds?: number;
                            };
                            /** @description MIME type of the content. */
                            mimeType?: string;
                            /** @description Name of the resource, unique within this list. */
                            name: string;
                            /** @description Fixed text content. */
                            text?: string;
                            /** @description Human-readable title. */
                            title?: string;
                            /** @description URI clients read the resource by. */
                            uri: string;
                        }[];
                        /** @description Resources addressed by a URI template. */
                        resourceTemplates?: {
                            /** @description What the resource holds. */
                            description?: string;
                            /** @description Content read from the backend when the resource is read. */
                            fromBackend: {
                                /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                path: string;
                            };
                            /** @description MIME type of the content. */
                            mimeType?: string;
                            /** @description Name of the resource, unique within this list. */
                            name: string;
                            /** @description Human-readable title. */
                            title?: string;
                            /** @description RFC 6570 URI template, for example docs://pets/{id}. */
                            uriTemplate: string;
                        }[];
                        /** Format: uuid */
                        serviceId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description Resources with a fixed URI. */
                            resources?: {
                                /** @description What the resource holds. */
                                description?: string;
                                /** @description Content read from the backend when the resource is read. */
                                fromBackend?: {
                                    /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                    path: string;
                                    /** @description While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user. */
                                    pollSeconds?: number;
                                };
                                /** @description MIME type of the content. */
                                mimeType?: string;
                                /** @description Name of the resource, unique within this list. */
                                name: string;
                                /** @description Fixed text content. */
                                text?: string;
                                /** @description Human-readable title. */
                                title?: string;
                                /** @description URI clients read the resource by. */
                                uri: string;
                            }[];
                            /** @description Resources addressed by a URI template. */
                            resourceTemplates?: {
                                /** @description What the resource holds. */
                                description?: string;
                                /** @description Content read from the backend when the resource is read. */
                                fromBackend: {
                                    /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                    path: string;
                                };
                                /** @description MIME type of the content. */
                                mimeType?: string;
                                /** @description Name of the resource, unique within this list. */
                                name: string;
                                /** @description Human-readable title. */
                                title?: string;
                                /** @description RFC 6570 URI template, for example docs://pets/{id}. */
                                uriTemplate: string;
                            }[];
                            /** Format: uuid */
                            serviceId: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description Resources with a fixed URI. */
                            resources?: {
                                /** @description What the resource holds. */
                                description?: string;
                                /** @description Content read from the backend when the resource is read. */
                                fromBackend?: {
                                    /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                    path: string;
                                    /** @description While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user. */
                                    pollSeconds?: number;
                                };
                                /** @description MIME type of the content. */
                                mimeType?: string;
                                /** @description Name of the resource, unique within this list. */
                                name: string;
                                /** @description Fixed text content. */
                                text?: string;
                                /** @description Human-readable title. */
                                title?: string;
                                /** @description URI clients read the resource by. */
                                uri: string;
                            }[];
                            /** @description Resources addressed by a URI template. */
                            resourceTemplates?: {
                                /** @description What the resource holds. */
                                description?: string;
                                /** @description Content read from the backend when the resource is read. */
                                fromBackend: {
                                    /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                    path: string;
                                };
                                /** @description MIME type of the content. */
                                mimeType?: string;
                                /** @description Name of the resource, unique within this list. */
                                name: string;
                                /** @description Human-readable title. */
                                title?: string;
                                /** @description RFC 6570 URI template, for example docs://pets/{id}. */
                                uriTemplate: string;
                            }[];
                            /** Format: uuid */
                            serviceId: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description Resources with a fixed URI. */
                        resources?: {
                            /** @description What the resource holds. */
                            description?: string;
                            /** @description Content read from the backend when the resource is read. */
                            fromBackend?: {
                                /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                path: string;
                                /** @description While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user. */
                                pollSeconds?: number;
                            };
                            /** @description MIME type of the content. */
                            mimeType?: string;
                            /** @description Name of the resource, unique within this list. */
                            name: string;
                            /** @description Fixed text content. */
                            text?: string;
                            /** @description Human-readable title. */
                            title?: string;
                            /** @description URI clients read the resource by. */
                            uri: string;
                        }[];
                        /** @description Resources addressed by a URI template. */
                        resourceTemplates?: {
                            /** @description What the resource holds. */
                            description?: string;
                            /** @description Content read from the backend when the resource is read. */
                            fromBackend: {
                                /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                path: string;
                            };
                            /** @description MIME type of the content. */
                            mimeType?: string;
                            /** @description Name of the resource, unique within this list. */
                            name: string;
                            /** @description Human-readable title. */
                            title?: string;
                            /** @description RFC 6570 URI template, for example docs://pets/{id}. */
                            uriTemplate: string;
                        }[];
                        /** Format: uuid */
                        serviceId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            /** @description Resources with a fixed URI. */
                            resources?: {
                                /** @description What the resource holds. */
                                description?: string;
                                /** @description Content read from the backend when the resource is read. */
                                fromBackend?: {
                                    /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                    path: string;
                                    /** @description While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user. */
                                    pollSeconds?: number;
                                };
                                /** @description MIME type of the content. */
                                mimeType?: string;
                                /** @description Name of the resource, unique within this list. */
                                name: string;
                                /** @description Fixed text content. */
                                text?: string;
                                /** @description Human-readable title. */
                                title?: string;
                                /** @description URI clients read the resource by. */
                                uri: string;
                            }[];
                            /** @description Resources addressed by a URI template. */
                            resourceTemplates?: {
                                /** @description What the resource holds. */
                                description?: string;
                                /** @description Content read from the backend when the resource is read. */
                                fromBackend: {
                                    /** @description Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded. */
                                    path: string;
                                };
                                /** @description MIME type of the content. */
                                mimeType?: string;
                                /** @description Name of the resource, unique within this list. */
                                name: string;
                                /** @description Human-readable title. */
                                title?: string;
                                /** @description RFC 6570 URI template, for example docs://pets/{id}. */
                                uriTemplate: string;
                            }[];
                            /** Format: uuid */
                            serviceId: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                id: string;
                                name: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description The secret; write-only. */
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The secret; write-only. */
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            id: string;
                            name: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                createdAt: string;
                                description?: string;
                                id: string;
                                /**
                                 * @description What the last import of the document changed so that every JSON Schema validator compiles its tools' schemas.
                                 * @default []
                                 */
                                importWarnings: {
                                    /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once; GRAPHQL_SUBSCRIPTION_NOT_EXPOSED: a Subscription field is not a tool (a tool call has one answer); GRAPHQL_SELECTION_TOO_LARGE: a root field is not a tool, its generated selection taking the Service past the selected-fields budget. GRPC_METHOD_NOT_EXPOSED: a gRPC method is not a tool (client-streaming or bidirectional, or a message whose JSON is not an object); the message says which and why. */
                                    code: string;
                                    /** @description Where the pattern or format is in the submitted or downloaded text. */
                                    location?: {
                                        /** @description 1-based column in the submitted or downloaded text. */
                                        column?: number;
                                        /** @description For an import of several files (gRPC .proto files): the path of the file in question. */
                                        file?: string;
                                        /** @description 1-based line in the submitted or downloaded text. */
                                        line?: number;
                                        /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                        pointer?: string;
                                    };
                                    /** @description What was changed and why, for people. */
                                    message: string;
                                }[];
                                /**
                                 * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                                 * @default openapi
                                 * @enum {string}
                                 */
                                kind: "openapi" | "graphql" | "grpc";
                                name: string;
                                /** @description The OpenAPI version of the document; absent for graphql and grpc. */
                                openapiVersion?: string;
                                operationCount: number;
                                servers: string[];
                                title: string;
                                updatedAt: string;
                                version: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What the API is for. */
                        description?: string;
                        /**
                         * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                         * @default openapi
                         * @enum {string}
                         */
                        kind?: "openapi" | "graphql" | "grpc";
                        name: string;
                        /** @description Where the contract comes from (the OpenAPI document, the GraphQL schema for kind graphql, .proto files or a reflection server for kind grpc): exactly one of inline, url, configMapRef, protoFiles. */
                        openapi: {
                            /** @description A ConfigMap entry holding the document (for kind grpc, one .proto file); the operator reads it and sends it inline. */
                            configMapRef?: {
                                /** @description Key of the ConfigMap entry holding the document. */
                                key: string;
                                /** @description Name of the ConfigMap in the same namespace. */
                                name: string;
                            };
                            /** @description The document itself: OpenAPI as JSON or YAML; for kind graphql, SDL or an introspection result; for kind grpc, one .proto file that imports nothing but Google's well-known types. */
                            inline?: string;
                            /** @description For kind grpc: the .proto files, each with its path relative to its import root, with every file they import (Google's well-known types google/protobuf/*.proto need none). Every service in them is imported. */
                            protoFiles?: {
                                /** @description The .proto file's text (UTF-8). */
                                content: string;
                                /** @description The file's path relative to its import root, as import statements name it, e.g. petstore/v1/pets.proto. */
                                path: string;
                            }[];
                            /** @description Where the control plane reads the contract: an http(s) URL of the document, or for kind grpc the server's address, grpc://host:port (h2c) or grpcs://host:port (TLS), read through server reflection (grpc.reflection.v1, else v1alpha). */
                            url?: string;
                        };
                        /** @description Version of the API contract, for example 1.0.0. */
                        version: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            description?: string;
                            id: string;
                            /**
                             * @description What the last import of the document changed so that every JSON Schema validator compiles its tools' schemas.
                             * @default []
                             */
                            importWarnings: {
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once; GRAPHQL_SUBSCRIPTION_NOT_EXPOSED: a Subscription field is not a tool (a tool call has one answer); GRAPHQL_SELECTION_TOO_LARGE: a root field is not a tool, its generated selection taking the Service past the selected-fields budget. GRPC_METHOD_NOT_EXPOSED: a gRPC method is not a tool (client-streaming or bidirectional, or a message whose JSON is not an object); the message says which and why. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description For an import of several files (gRPC .proto files): the path of the file in question. */
                                    file?: string;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql" | "grpc";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for graphql and grpc. */
                            openapiVersion?: string;
                            operationCount: number;
                            servers: string[];
                            title: string;
                            updatedAt: string;
                            version: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/services/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            description?: string;
                            id: string;
                            /**
                             * @description What the last import of the document changed so that every JSON Schema validator compiles its tools' schemas.
                             * @default []
                             */
                            importWarnings: {
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once; GRAPHQL_SUBSCRIPTION_NOT_EXPOSED: a Subscription field is not a tool (a tool call has one answer); GRAPHQL_SELECTION_TOO_LARGE: a root field is not a tool, its generated selection taking the Service past the selected-fields budget. GRPC_METHOD_NOT_EXPOSED: a gRPC method is not a tool (client-streaming or bidirectional, or a message whose JSON is not an object); the message says which and why. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description For an import of several files (gRPC .proto files): the path of the file in question. */
                                    file?: string;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql" | "grpc";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for graphql and grpc. */
                            openapiVersion?: string;
                            operationCount: number;
                            operations: {
                                method: string;
                                operationId: string;
                                path: string;
                                summary?: string;
                            }[];
                            servers: string[];
                            title: string;
                            updatedAt: string;
                            version: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What the API is for. */
                        description?: string;
                        /**
                         * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                         * @default openapi
                         * @enum {string}
                         */
                        kind?: "openapi" | "graphql" | "grpc";
                        name: string;
                        /** @description Where the contract comes from (the OpenAPI document, the GraphQL schema for kind graphql, .proto files or a reflection server for kind grpc): exactly one of inline, url, configMapRef, protoFiles. */
                        openapi: {
                            /** @description A ConfigMap entry holding the document (for kind grpc, one .proto file); the operator reads it and sends it inline. */
                            configMapRef?: {
                                /** @description Key of the ConfigMap entry holding the document. */
                                key: string;
                                /** @description Name of the ConfigMap in the same namespace. */
                                name: string;
                            };
                            /** @description The document itself: OpenAPI as JSON or YAML; for kind graphql, SDL or an introspection result; for kind grpc, one .proto file that imports nothing but Google's well-known types. */
                            inline?: string;
                            /** @description For kind grpc: the .proto files, each with its path relative to its import root, with every file they import (Google's well-known types google/protobuf/*.proto need none). Every service in them is imported. */
                            protoFiles?: {
                                /** @description The .proto file's text (UTF-8). */
                                content: string;
                                /** @description The file's path relative to its import root, as import statements name it, e.g. petstore/v1/pets.proto. */
                                path: string;
                            }[];
                            /** @description Where the control plane reads the contract: an http(s) URL of the document, or for kind grpc the server's address, grpc://host:port (h2c) or grpcs://host:port (TLS), read through server reflection (grpc.reflection.v1, else v1alpha). */
                            url?: string;
                        };
                        /** @description Version of the API contract, for example 1.0.0. */
                        version: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            description?: string;
                            id: string;
                            /**
                             * @description What the last import of the document changed so that every JSON Schema validator compiles its tools' schemas.
                             * @default []
                             */
                            importWarnings: {
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once; GRAPHQL_SUBSCRIPTION_NOT_EXPOSED: a Subscription field is not a tool (a tool call has one answer); GRAPHQL_SELECTION_TOO_LARGE: a root field is not a tool, its generated selection taking the Service past the selected-fields budget. GRPC_METHOD_NOT_EXPOSED: a gRPC method is not a tool (client-streaming or bidirectional, or a message whose JSON is not an object); the message says which and why. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description For an import of several files (gRPC .proto files): the path of the file in question. */
                                    file?: string;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql" | "grpc";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for graphql and grpc. */
                            openapiVersion?: string;
                            operationCount: number;
                            servers: string[];
                            title: string;
                            updatedAt: string;
                            version: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/services/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query: {
                    /** @description What the API is for. */
                    description?: string;
                    /** @description openapi, graphql or grpc; when absent, told from the body: JSON with '__schema' (or 'data.__schema') or GraphQL SDL is graphql, a .proto file (a syntax, edition or package statement first) grpc, anything else openapi. For grpc the body is one .proto file importing only Google's well-known types; send several files as protoFiles to POST /services. */
                    kind?: "openapi" | "graphql" | "grpc";
                    name: string;
                    /** @description Version of the API contract, for example 1.0.0. */
                    version: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            createdAt: string;
                            description?: string;
                            id: string;
                            /**
                             * @description What the last import of the document changed so that every JSON Schema validator compiles its tools' schemas.
                             * @default []
                             */
                            importWarnings: {
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once; GRAPHQL_SUBSCRIPTION_NOT_EXPOSED: a Subscription field is not a tool (a tool call has one answer); GRAPHQL_SELECTION_TOO_LARGE: a root field is not a tool, its generated selection taking the Service past the selected-fields budget. GRPC_METHOD_NOT_EXPOSED: a gRPC method is not a tool (client-streaming or bidirectional, or a message whose JSON is not an object); the message says which and why. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description For an import of several files (gRPC .proto files): the path of the file in question. */
                                    file?: string;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql" | "grpc";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for graphql and grpc. */
                            openapiVersion?: string;
                            operationCount: number;
                            servers: string[];
                            title: string;
                            updatedAt: string;
                            version: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                /** @enum {string} */
                                role: "admin" | "member";
                                username: string;
                            }[];
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                        /**
                         * @default member
                         * @enum {string}
                         */
                        role?: "admin" | "member";
                        username: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            role: "admin" | "member";
                            username: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        role: "admin" | "member";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            role: "admin" | "member";
                            username: string;
                        };
                    };
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An RFC 9457 problem: what went wrong and how to fix it */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/q/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/q/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Problem: {
            /** @description What went wrong, for programs: e.g. NOT_FOUND, INVALID_REQUEST. */
            code?: string;
            /** @description What went wrong and how to fix it, for people. */
            detail?: string;
            errors?: {
                /** @description Path of the offending field in the request, e.g. `body.backendEndpoint`. */
                field: string;
                message: string;
            }[];
            instance?: string;
            /** @description Where the submitted document is wrong (an OpenAPI import's problem). */
            location?: {
                /** @description 1-based column in the submitted or downloaded text. */
                column?: number;
                /** @description For an import of several files (gRPC .proto files): the path of the file in question. */
                file?: string;
                /** @description 1-based line in the submitted or downloaded text. */
                line?: number;
                /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                pointer?: string;
            };
            status?: number;
            title?: string;
            type?: string;
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
