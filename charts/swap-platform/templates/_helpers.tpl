{{- define "swap-platform.labels" -}}
app.kubernetes.io/part-of: swap-platform
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end }}

{{- define "swap-platform.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag }}
{{- end }}
