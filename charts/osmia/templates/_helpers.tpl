{{/* Chart name, truncated to a DNS label. */}}
{{- define "osmia.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: release-chart unless the release name already contains the chart name. */}}
{{- define "osmia.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "osmia.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "osmia.selectorLabels" -}}
app.kubernetes.io/name: {{ include "osmia.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "osmia.labels" -}}
helm.sh/chart: {{ include "osmia.chart" . }}
{{ include "osmia.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: osmia
{{- end }}

{{- define "osmia.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "osmia.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "osmia.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "osmia.claimName" -}}
{{- default (printf "%s-memory" (include "osmia.fullname" .)) .Values.persistence.memory.existingClaim }}
{{- end }}

{{/* The kopf peering name ("" = standalone). */}}
{{- define "osmia.peeringName" -}}
{{- if .Values.peering.enabled }}{{ include "osmia.fullname" . }}{{ end }}
{{- end }}

{{/* Path of the SQLite database on the memory volume. */}}
{{- define "osmia.storePath" -}}
{{- printf "%s/memory.db" (.Values.persistence.memory.mountPath | trimSuffix "/") }}
{{- end }}

{{/*
The operator's osmia-config.yaml: the user's `config` with the keys that the
chart owns filled in from the other values.
*/}}
{{- define "osmia.config" -}}
{{- $config := deepCopy .Values.config }}
{{- $memory := merge (dict "store_path" (include "osmia.storePath" .)) ($config.memory | default dict) }}
{{- $operator := merge (dict
      "namespaces" (.Values.watchNamespaces | default list)
      "metrics_port" (ternary (int .Values.metrics.port) 0 .Values.metrics.enabled)
      "liveness_port" (int .Values.probes.port)
      "peering" (include "osmia.peeringName" .)
    ) ($config.operator | default dict) }}
{{- $out := dict "memory" $memory "operator" $operator }}
{{- with $config.execution }}{{ $_ := set $out "execution" . }}{{ end }}
{{- with $config.engines }}{{ $_ := set $out "engines" . }}{{ end }}
{{- toYaml $out }}
{{- end }}

{{/*
The scrape job whose `up` series says the operator is alive: the metrics Service's
name, which is the job label the prometheus-operator gives a ServiceMonitor's targets.
*/}}
{{- define "osmia.metricsJob" -}}
{{- .Values.prometheusRule.operatorDown.job | default (printf "%s-metrics" (include "osmia.fullname" .)) -}}
{{- end }}
