{{/* Name of the Secret holding the encryption keys: the user's, or the one the chart generates. */}}
{{- define "controlPlane.encryptionSecret" -}}
{{- default (printf "%s-encryption-key" (include "atrium.fullname" .)) .Values.encryptionKey.existingSecret -}}
{{- end -}}

{{- define "controlPlane.adminSecret" -}}
{{- default (printf "%s-admin" (include "atrium.fullname" .)) .Values.admin.existingSecret -}}
{{- end -}}

{{- define "controlPlane.databaseSecret" -}}
{{- default (printf "%s-database" (include "atrium.fullname" .)) .Values.externalDatabase.existingSecret -}}
{{- end -}}

{{/* Refuses combinations the schema cannot express, with what to change. */}}
{{- define "controlPlane.validate" -}}
{{- $db := .Values.externalDatabase -}}
{{- $enc := .Values.encryptionKey -}}
{{- if and (gt (int .Values.ctrl.replicas) 1) (not $db.host) -}}
{{- fail "ctrl.replicas > 1 needs externalDatabase.host: replicas share one PostgreSQL, the embedded database serves one replica" -}}
{{- end -}}
{{- if and $db.password $db.existingSecret -}}
{{- fail "set externalDatabase.password or externalDatabase.existingSecret, not both" -}}
{{- end -}}
{{- if eq (len $enc.keys) 0 -}}
{{- fail "encryptionKey.keys is empty: name at least one key, e.g. encryptionKey.keys.v1.key=encryption-key-v1" -}}
{{- end -}}
{{- if not (hasKey $enc.keys $enc.activeKeyId) -}}
{{- fail (printf "encryptionKey.activeKeyId '%s' is not in encryptionKey.keys (%s): add the key first, upgrade, then switch" $enc.activeKeyId (keys $enc.keys | sortAlpha | join ", ")) -}}
{{- end -}}
{{- if and .Values.webUi.gatewayOrigins (not .Values.webUi.enabled) -}}
{{- fail "webUi.gatewayOrigins is for the web UI's playground: set webUi.enabled=true too, or leave gatewayOrigins empty" -}}
{{- end -}}
{{- if and $enc.key (not $enc.existingSecret) -}}
{{- fail "encryptionKey.key names the legacy key's entry in encryptionKey.existingSecret: set existingSecret too (a legacy key cannot be generated)" -}}
{{- end -}}
{{- end -}}

{{/* The web UI's address for a person: the first Ingress host (https when its TLS names it), else a port-forward. */}}
{{- define "controlPlane.uiUrl" -}}
{{- $ingress := .Values.ingress -}}
{{- if and $ingress.enabled $ingress.hosts -}}
{{- $host := (first $ingress.hosts).host -}}
{{- $tls := false -}}
{{- range $ingress.tls }}{{ if has $host .hosts }}{{ $tls = true }}{{ end }}{{ end -}}
{{- printf "%s://%s/" (ternary "https" "http" $tls) $host -}}
{{- else -}}
{{- printf "http://127.0.0.1:%d/" (int .Values.ctrl.service.port) -}}
{{- end -}}
{{- end -}}
