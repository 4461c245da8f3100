/**
 * @atrium/crds — the Zod schemas of the atrium.dev/v1alpha1 kinds and what is derived from them.
 */
export {
  artifactStatus,
  condition,
  envReference,
  httpUrl,
  labelKey,
  labelKeyProblem,
  labelMap,
  labelValue,
  objectName,
  objectRef,
  reconcileState,
  reconcileStatus,
  urlProblem,
} from "./common.ts";
export {
  customResourceDefinition,
  customResourceDefinitionYaml,
  generatedDir,
  generatedFileName,
} from "./crd.ts";
export { API_GROUP, API_VERSION, GROUP_VERSION } from "./group.ts";
export { type KindDefinition, objectMeta } from "./kind.ts";
export { backendTls, gatewayFilePath } from "./kinds/backend-tls.ts";
export { type CircuitBreakerSettings, circuitBreaker } from "./kinds/circuit-breaker.ts";
export {
  ACCESS_TOKEN_TYPE,
  AUTHORIZATION_CALLBACK_PATH,
  authorizationCodeFields,
  backendSecret,
  backendSecretFields,
  backendSecretSources,
  bearerPlacementRule,
  ConfigurationPlan,
  configurationPlanRules,
  configurationPlanSpec,
  configurationPlanWarnings,
  elicitSignIn,
  exchangedBearerPlacementRule,
  grantedBearerPlacementRule,
  headerPolicy,
  oauth2AuthorizationCode,
  oauth2ClientCredentials,
  oauthSettings,
  planLimits,
  tokenExchange,
  tokenExchangeFields,
  toolExposureMode,
  WRITE_WARNINGS_CONDITION,
} from "./kinds/configuration-plan.ts";
export {
  CustomTools,
  customTool,
  customToolsSpec,
  storedCustomTool,
  storedCustomToolsSpec,
  toolAnnotations,
  toolName,
  unicodeRegexProblem,
} from "./kinds/custom-tools.ts";
export { Exposition, expositionSpec } from "./kinds/exposition.ts";
export {
  GatewayGroup,
  type GatewayGroupSelector,
  gatewayGroupSpec,
  labelSelectorRequirement,
  selectsGateway,
} from "./kinds/gateway-group.ts";
export { DEFAULT_MAX_STREAM_MESSAGES, grpcPlanSettings, MAX_STREAM_MESSAGES } from "./kinds/grpc-plan.ts";
export {
  jsonPointer,
  MAX_PATCHES,
  MAX_RETAIN_POINTERS,
  type ToolOutputFilter,
  toolOutputFilter,
  toolOutputFilters,
} from "./kinds/output-filters.ts";
export { mcpPrompt, Prompts, promptArgument, promptsSpec } from "./kinds/prompts.ts";
export { mcpResource, mcpResourceTemplate, Resources, resourcesSpec } from "./kinds/resources.ts";
export { SecretSource, secretSourceSpec, secretSourceStatus } from "./kinds/secret-source.ts";
export {
  contractUrl,
  grpcUrlProblem,
  IMPORT_WARNINGS_CONDITION,
  maxProtoFiles,
  openApiSource,
  protoFile,
  Service,
  type ServiceKind,
  serviceKind,
  serviceSourceRules,
  serviceSpec,
  serviceStatus,
} from "./kinds/service.ts";
export { type AtriumKind, kindNamed, kinds } from "./kinds.ts";
export { unknownFormatProblem } from "./known-formats.ts";
export { type CelRule, exactlyOneOf, type ObjectRule, withRules, type ZodOnlyRule } from "./rules.ts";
export {
  EXPECTED_ERROR_ANNOTATION,
  type InvalidSample,
  invalidSamples,
  petstoreOpenApi,
  REFUSERS,
  type Refuser,
  type Sample,
  samplesDir,
  validSamples,
} from "./samples.ts";
export { type JsonSchema, toStructural } from "./structural.ts";
export { issueMessage, kubernetesWording, type Verdict, validateResource } from "./validate.ts";
export { describeViolations, fieldPath, type Violation } from "./violations.ts";
