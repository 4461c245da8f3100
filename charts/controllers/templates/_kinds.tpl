{{- /* Generated from @atrium/crds by `npm run generate -w @atrium/charts`: the plurals of the eight kinds. */ -}}
{{- define "atrium.kindPlurals" -}}["configurationplans","customtools","expositions","gatewaygroups","prompts","resources","secretsources","services"]{{- end -}}
