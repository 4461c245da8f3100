/**
 * @atrium/gateway — start a gateway in-process, and its configuration; the circuit breakers and
 * the limiter for the benchmarks that time their work per call; its registration and change
 * stream for the benchmark that simulates a fleet of gateways on one control plane; its metric
 * families for the metric catalogue.
 */
export { CircuitBreakers } from "./circuit-breaker.ts";
export { allowedHosts, configFromEnv, type GatewayConfig } from "./config.ts";
export { ControlPlaneClient } from "./control-plane-client.ts";
export { type Gateway, startGateway, VERSION } from "./gateway.ts";
export { ExpositionLimiter } from "./limits.ts";
export type { FamilyDescription } from "./metric-families.ts";
export { GatewayMetrics } from "./metrics.ts";
export { compileDocumentFilter } from "./output-filters/document.ts";
export { GatewayRegistration } from "./sync-registration.ts";
export { ChangeStream, type StreamListener } from "./sync-stream.ts";
