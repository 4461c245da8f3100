/**
 * @atrium/control-plane — start a control plane in-process, and its configuration.
 * The change-stream contract is `@atrium/control-plane/stream`; test support `…/testing`.
 */
export { type ControlPlane, startControlPlane, VERSION } from "./app.ts";
export { type ControlPlaneConfig, configFromEnv } from "./config.ts";
