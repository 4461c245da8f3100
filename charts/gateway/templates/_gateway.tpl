{{/* The Secret and key of the control-plane token: the deprecated inline token's Secret wins. */}}
{{- define "gateway.tokenSecret" -}}
{{- if .Values.gateway.controlPlane.token -}}
{{- printf "%s-control-plane-token" (include "atrium.fullname" .) -}}
{{- else -}}
{{- required "gateway.controlPlane.existingSecret is required: the Secret holding the gateways' API token" .Values.gateway.controlPlane.existingSecret -}}
{{- end -}}
{{- end -}}

{{- define "gateway.tokenKey" -}}
{{- if .Values.gateway.controlPlane.token }}token{{ else }}{{ .Values.gateway.controlPlane.tokenKey }}{{ end -}}
{{- end -}}

{{/* The cluster keystore: one Secret for every replica and release upgrade. */}}
{{- define "gateway.keystoreSecret" -}}
{{- printf "%s-cluster-keystore" (include "atrium.fullname" .) -}}
{{- end -}}

{{/* FQDNs the gateways advertise: the values, else the Service's cluster DNS name and port. */}}
{{- define "gateway.fqdns" -}}
{{- if .Values.gateway.fqdns -}}
{{- join "," .Values.gateway.fqdns -}}
{{- else -}}
{{- printf "%s.%s.svc.cluster.local:%d" (include "atrium.fullname" .) .Release.Namespace (int .Values.service.port) -}}
{{- end -}}
{{- end -}}

{{/* key=value,… as ATRIUM_GATEWAY_LABELS reads it. */}}
{{- define "gateway.labelList" -}}
{{- $pairs := list -}}
{{- range $key, $value := . -}}
{{- $pairs = append $pairs (printf "%s=%s" $key $value) -}}
{{- end -}}
{{- join "," $pairs -}}
{{- end -}}
