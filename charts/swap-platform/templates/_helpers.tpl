{{- define "swap-platform.labels" -}}
app.kubernetes.io/part-of: swap-platform
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version | replace "+" "_" }}
{{- end }}

{{/* Selector labels of one service's pods: (dict "root" $ "name" "relay-tracker"). */}}
{{- define "swap-platform.selector" -}}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/name: {{ .name }}
{{- end }}

{{/* The image: pinned by digest when one is given, else by tag (the chart's appVersion by default). */}}
{{- define "swap-platform.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/* What each service needs, a property of the code rather than a choice of the deployment. */}}
{{- define "swap-platform.databaseServices" -}}
quote-builder relay-tracker oracle-candles key-registry sponsorship-keys partner-portal-api
{{- end }}
{{- define "swap-platform.chainServices" -}}
quote-builder relay-tracker
{{- end }}
{{/* The services on the bus, each a NATS user of files/nats-permissions.conf (api-gateway and oracle-candles are not). */}}
{{- define "swap-platform.busServices" -}}
swap-gateway quote-builder relay-tracker key-registry sponsorship-keys partner-portal-api
{{- end }}

{{/* Whether a service's replica count is left to an autoscaler (HPA or KEDA). */}}
{{- define "swap-platform.autoscaled" -}}
{{- if or .svc.autoscaling.enabled (and .svc.keda .svc.keda.enabled) }}true{{ end -}}
{{- end }}

{{/* The fewest replicas a service runs with: its autoscaler's minimum, else its replicas. */}}
{{- define "swap-platform.minReplicas" -}}
{{- if and .svc.keda .svc.keda.enabled -}}{{ int .svc.keda.minReplicas }}
{{- else if .svc.autoscaling.enabled -}}{{ int .svc.autoscaling.minReplicas }}
{{- else -}}{{ int .svc.replicas }}{{- end -}}
{{- end }}

{{/* A secretKeyRef env entry from secrets.<name>: (dict "env" "DATABASE_URL" "ref" .Values.secrets.database). */}}
{{- define "swap-platform.secretEnv" -}}
- name: {{ .env }}
  valueFrom:
    secretKeyRef: { name: {{ .ref.name | quote }}, key: {{ .ref.key | quote }} }
{{- end }}

{{- define "swap-platform.configMapEnv" -}}
- name: {{ .env }}
  valueFrom:
    configMapKeyRef: { name: {{ .ref.name | quote }}, key: {{ .ref.key | quote }} }
{{- end }}

{{- define "swap-platform.portalPublicUrl" -}}
{{- $ingress := .Values.ingress -}}
{{- if .Values.portal.publicUrl -}}{{ .Values.portal.publicUrl }}
{{- else if and $ingress.enabled $ingress.portal.host -}}{{ ternary "https" "http" (ne $ingress.portal.tlsSecret "") }}://{{ $ingress.portal.host }}
{{- else if $ingress.enabled -}}{{ ternary "https" "http" (ne $ingress.api.tlsSecret "") }}://{{ $ingress.api.host }}
{{- else -}}http://localhost:3000{{- end -}}
{{- end }}

{{/* A NATS client's TLS files (env, mounts, volumes), for a service on the bus and the migration Job. */}}
{{- define "swap-platform.natsTlsEnv" -}}
{{- if .Values.nats.tls.ca.name }}
- { name: NATS_TLS_CA_FILE, value: /etc/swap-platform/nats-ca/ca.crt }
{{- end }}
{{- if .Values.nats.tls.clientCertSecret }}
- { name: NATS_TLS_CERT_FILE, value: /etc/swap-platform/nats-client/tls.crt }
- { name: NATS_TLS_KEY_FILE, value: /etc/swap-platform/nats-client/tls.key }
{{- end }}
{{- end }}

{{- define "swap-platform.natsTlsMounts" -}}
{{- if .Values.nats.tls.ca.name }}
- { name: nats-ca, mountPath: /etc/swap-platform/nats-ca, readOnly: true }
{{- end }}
{{- if .Values.nats.tls.clientCertSecret }}
- { name: nats-client, mountPath: /etc/swap-platform/nats-client, readOnly: true }
{{- end }}
{{- end }}

{{- define "swap-platform.natsTlsVolumes" -}}
{{- if .Values.nats.tls.ca.name }}
- name: nats-ca
  secret:
    secretName: {{ .Values.nats.tls.ca.name | quote }}
    items: [{ key: {{ .Values.nats.tls.ca.key | quote }}, path: ca.crt }]
    defaultMode: 288 # 0440
{{- end }}
{{- if .Values.nats.tls.clientCertSecret }}
# Readable by the pod's group (fsGroup) only.
- name: nats-client
  secret:
    secretName: {{ .Values.nats.tls.clientCertSecret | quote }}
    items: [{ key: tls.crt, path: tls.crt }, { key: tls.key, path: tls.key }]
    defaultMode: 288 # 0440
{{- end }}
{{- end }}
