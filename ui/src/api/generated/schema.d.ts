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
                                };
                                /**
                                 * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                                 * @default 30000
                                 */
                                backendTimeoutMs: number;
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
                        };
                        /**
                         * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                         * @default 30000
                         */
                        backendTimeoutMs?: number;
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
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
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
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
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
                        };
                        /**
                         * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                         * @default 30000
                         */
                        backendTimeoutMs?: number;
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
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
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
                            };
                            /**
                             * @description Time the backend has to answer; past it the tool result is a gateway-generated 504.
                             * @default 30000
                             */
                            backendTimeoutMs: number;
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
                                    /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                    inputSchema?: {
                                        /** @description "object" when given: the arguments are a JSON object. */
                                        type?: string;
                                    } & {
                                        [key: string]: unknown;
                                    };
                                    /** @description Tool name, unique within the Exposition's tools. */
                                    name: string;
                                    /** @description The backend request the tool makes. */
                                    request: {
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
                            /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                            inputSchema?: {
                                /** @description "object" when given: the arguments are a JSON object. */
                                type?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description Tool name, unique within the Exposition's tools. */
                            name: string;
                            /** @description The backend request the tool makes. */
                            request: {
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
                                /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                inputSchema?: {
                                    /** @description "object" when given: the arguments are a JSON object. */
                                    type?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description Tool name, unique within the Exposition's tools. */
                                name: string;
                                /** @description The backend request the tool makes. */
                                request: {
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
                                /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                inputSchema?: {
                                    /** @description "object" when given: the arguments are a JSON object. */
                                    type?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description Tool name, unique within the Exposition's tools. */
                                name: string;
                                /** @description The backend request the tool makes. */
                                request: {
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
                            /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                            inputSchema?: {
                                /** @description "object" when given: the arguments are a JSON object. */
                                type?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description Tool name, unique within the Exposition's tools. */
                            name: string;
                            /** @description The backend request the tool makes. */
                            request: {
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
                                /** @description JSON Schema (an object schema) of the arguments; no arguments when absent. */
                                inputSchema?: {
                                    /** @description "object" when given: the arguments are a JSON object. */
                                    type?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description Tool name, unique within the Exposition's tools. */
                                name: string;
                                /** @description The backend request the tool makes. */
                                request: {
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
                                    /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once. */
                                    code: string;
                                    /** @description Where the pattern or format is in the submitted or downloaded text. */
                                    location?: {
                                        /** @description 1-based column in the submitted or downloaded text. */
                                        column?: number;
                                        /** @description 1-based line in the submitted or downloaded text. */
                                        line?: number;
                                        /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                        pointer?: string;
                                    };
                                    /** @description What was changed and why, for people. */
                                    message: string;
                                }[];
                                /**
                                 * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                                 * @default openapi
                                 * @enum {string}
                                 */
                                kind: "openapi" | "graphql";
                                name: string;
                                /** @description The OpenAPI version of the document; absent for kind graphql. */
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
                         * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                         * @default openapi
                         * @enum {string}
                         */
                        kind?: "openapi" | "graphql";
                        name: string;
                        /** @description Where the contract document comes from (the OpenAPI document, or the GraphQL schema for kind graphql): exactly one of inline, url, configMapRef. */
                        openapi: {
                            /** @description A ConfigMap entry holding the document; the operator reads it and sends it inline. */
                            configMapRef?: {
                                /** @description Key of the ConfigMap entry holding the document. */
                                key: string;
                                /** @description Name of the ConfigMap in the same namespace. */
                                name: string;
                            };
                            /** @description The document itself: OpenAPI as JSON or YAML; for kind graphql, SDL or an introspection result. */
                            inline?: string;
                            /** @description Where the control plane downloads the document from. */
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
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for kind graphql. */
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
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for kind graphql. */
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
                         * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                         * @default openapi
                         * @enum {string}
                         */
                        kind?: "openapi" | "graphql";
                        name: string;
                        /** @description Where the contract document comes from (the OpenAPI document, or the GraphQL schema for kind graphql): exactly one of inline, url, configMapRef. */
                        openapi: {
                            /** @description A ConfigMap entry holding the document; the operator reads it and sends it inline. */
                            configMapRef?: {
                                /** @description Key of the ConfigMap entry holding the document. */
                                key: string;
                                /** @description Name of the ConfigMap in the same namespace. */
                                name: string;
                            };
                            /** @description The document itself: OpenAPI as JSON or YAML; for kind graphql, SDL or an introspection result. */
                            inline?: string;
                            /** @description Where the control plane downloads the document from. */
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
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for kind graphql. */
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
                    /** @description openapi or graphql; when absent, told from the body: JSON with '__schema' (or 'data.__schema') or GraphQL SDL is graphql, anything else openapi. */
                    kind?: "openapi" | "graphql";
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
                                /** @description PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once. */
                                code: string;
                                /** @description Where the pattern or format is in the submitted or downloaded text. */
                                location?: {
                                    /** @description 1-based column in the submitted or downloaded text. */
                                    column?: number;
                                    /** @description 1-based line in the submitted or downloaded text. */
                                    line?: number;
                                    /** @description JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`. */
                                    pointer?: string;
                                };
                                /** @description What was changed and why, for people. */
                                message: string;
                            }[];
                            /**
                             * @description The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.
                             * @default openapi
                             * @enum {string}
                             */
                            kind: "openapi" | "graphql";
                            name: string;
                            /** @description The OpenAPI version of the document; absent for kind graphql. */
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
