/**
 * @atrium/control-plane — start a control plane in-process, and its configuration.
 * The wire contract with the gateways is `@atrium/contract`; test support `…/testing`.
 */
export { type ControlPlane, startControlPlane, VERSION } from "./app.ts";
export { type ControlPlaneConfig, configFromEnv } from "./config.ts";
export { ControlPlaneMetrics } from "./metrics.ts";
