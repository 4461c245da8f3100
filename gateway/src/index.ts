/**
 * @atrium/gateway — start a gateway in-process, and its configuration.
 */
export { allowedHosts, configFromEnv, type GatewayConfig } from "./config.ts";
export { type Gateway, startGateway, VERSION } from "./gateway.ts";
