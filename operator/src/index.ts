/**
 * @atrium/operator: reconciles atrium.dev/v1alpha1 custom resources into the control plane.
 * `node operator/src/main.ts` runs it from the environment; `startOperator` runs it in-process.
 */
export { configFromEnv, type LeaderElectionSettings, type OperatorConfig, type TokenSetting } from "./config.ts";
export { errors, OperatorError } from "./errors.ts";
export { FINALIZER } from "./kube/objects.ts";
export { type Log, silentLog } from "./log.ts";
export { OperatorMetrics } from "./metrics.ts";
export { type Operator, type OperatorOptions, startOperator } from "./operator.ts";
export { secretRecordName } from "./reconcile/kinds/secret-source.ts";
