{{- define "controllers.operatorName" -}}
{{- printf "%s-operator" (include "atrium.fullname" .) -}}
{{- end -}}

{{- define "controllers.webhookName" -}}
{{- printf "%s-webhook" (include "atrium.fullname" .) -}}
{{- end -}}

{{- define "controllers.webhookTlsSecret" -}}
{{- printf "%s-webhook-tls" (include "atrium.fullname" .) -}}
{{- end -}}

{{/* The webhook Service's DNS names, which its certificate must cover. */}}
{{- define "controllers.webhookDnsNames" -}}
{{- $service := include "controllers.webhookName" . -}}
{{- list $service (printf "%s.%s" $service .Release.Namespace) (printf "%s.%s.svc" $service .Release.Namespace) (printf "%s.%s.svc.cluster.local" $service .Release.Namespace) | toJson -}}
{{- end -}}
