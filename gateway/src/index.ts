/**
 * @atrium/gateway — start a gateway in-process, and its configuration; the circuit breakers and
 * the limiter for the benchmarks that time their work per call.
 */
export { CircuitBreakers } from "./circuit-breaker.ts";
export { allowedHosts, configFromEnv, type GatewayConfig } from "./config.ts";
export { type Gateway, startGateway, VERSION } from "./gateway.ts";
export { ExpositionLimiter } from "./limits.ts";
