{{- /*
Template helpers shared by the Atrium charts. charts/src/templates/_atrium.tpl is the source:
`npm run generate -w @atrium/charts` copies it into each chart's templates/ (drift-tested).
*/ -}}

{{/* Object-name prefix: the release name, plus the chart name unless the release name has it. */}}
{{- define "atrium.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object. */}}
{{- define "atrium.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: atrium
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "gateway"). */}}
{{- define "atrium.selectorLabels" -}}
app.kubernetes.io/name: {{ default .root.Chart.Name .root.Values.nameOverride | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* repository:tag of an image value; the tag defaults to the chart's appVersion. */}}
{{- define "atrium.image" -}}
{{- printf "%s:%s" .image.repository (default .root.Chart.AppVersion .image.tag) -}}
{{- end -}}

{{/* Pod-level hardening: non-root uid 1000, RuntimeDefault seccomp. */}}
{{- define "atrium.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container-level hardening: read-only root filesystem, no capabilities, no privilege escalation. */}}
{{- define "atrium.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
{{- end -}}

{{/* Pod spec entries from a workload's placement values (nodeSelector, tolerations, affinity, …). */}}
{{- define "atrium.podPlacement" -}}
{{- with .priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Pod template metadata: (dict "root" $ "component" "x" "workload" .Values.x "annotations" (dict …)). */}}
{{- define "atrium.podMetadata" -}}
labels:
  {{- include "atrium.selectorLabels" . | nindent 2 }}
  {{- with .workload.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- $annotations := merge (dict) (default (dict) .annotations) .workload.podAnnotations }}
{{- with $annotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A PodDisruptionBudget when enabled and more than one pod runs: (dict "root" $ "component" "x" "pdb" … "replicas" n). */}}
{{- define "atrium.podDisruptionBudget" -}}
{{- if and .pdb.enabled (gt (int .replicas) 1) }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "atrium.fullname" .root }}-{{ .component }}
  labels:
    {{- include "atrium.labels" .root | nindent 4 }}
spec:
  maxUnavailable: {{ .pdb.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "atrium.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end -}}

{{/* A ServiceMonitor for /q/metrics on the Service's `management` port, when serviceMonitor.enabled: (dict "root" $ "component" "x"). */}}
{{- define "atrium.managementServiceMonitor" -}}
{{- $monitor := .root.Values.serviceMonitor -}}
{{- if $monitor.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "atrium.fullname" .root }}
  labels:
    {{- include "atrium.labels" .root | nindent 4 }}
    {{- with $monitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "atrium.selectorLabels" . | nindent 6 }}
  endpoints:
    - port: management
      path: /q/metrics
      interval: {{ $monitor.interval }}
{{- end }}
{{- end -}}

{{/*
A PrometheusRule with the chart's alerts, when prometheusRule.enabled: (dict "root" $ "job" "atrium-gateway").
rules/atrium.rules.yaml is generated from charts/src/observability; its job names are those of a
release named atrium, and `job` (when given) is replaced by this release's Service name.
*/}}
{{- define "atrium.prometheusRule" -}}
{{- $rule := .root.Values.prometheusRule -}}
{{- if $rule.enabled }}
{{- $rules := .root.Files.Get "rules/atrium.rules.yaml" }}
{{- if .job }}
{{- $rules = $rules | replace (printf "job=%q" .job) (printf "job=%q" (include "atrium.fullname" .root)) }}
{{- end }}
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: {{ include "atrium.fullname" .root }}
  labels:
    {{- include "atrium.labels" .root | nindent 4 }}
    {{- with $rule.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  {{- $rules | nindent 2 }}
{{- end }}
{{- end -}}

{{/* An Ingress to a Service port: (dict "root" $ "ingress" .Values.ingress "service" name "port" n). */}}
{{- define "atrium.ingress" -}}
{{- if .ingress.enabled }}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ .service }}
  labels:
    {{- include "atrium.labels" .root | nindent 4 }}
  {{- with .ingress.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .ingress.className }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- with .ingress.tls }}
  tls:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  rules:
    {{- range .ingress.hosts }}
    - host: {{ .host | quote }}
      http:
        paths:
          {{- range .paths }}
          - path: {{ . }}
            pathType: Prefix
            backend:
              service:
                name: {{ $.service }}
                port:
                  number: {{ $.port }}
          {{- end }}
    {{- end }}
{{- end }}
{{- end -}}

{{/* A Secret entry generated once and then kept: the live object's value (lookup), else `new`. */}}
{{- define "atrium.keptEntry" -}}
{{- $live := lookup "v1" "Secret" .namespace .secret -}}
{{- $data := dig "data" (dict) (default (dict) $live) -}}
{{- if hasKey $data .key -}}
{{- index $data .key -}}
{{- else -}}
{{- .new | b64enc -}}
{{- end -}}
{{- end -}}
