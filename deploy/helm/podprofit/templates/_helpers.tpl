{{/* Chart name, overridable. */}}
{{- define "podprofit.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-scoped base name. */}}
{{- define "podprofit.fullname" -}}
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

{{/* Name of one component's objects. Takes (dict "root" $ "component" "gateway"). */}}
{{- define "podprofit.componentName" -}}
{{- printf "%s-%s" (include "podprofit.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels. Takes (dict "root" $ "component" "gateway"). */}}
{{- define "podprofit.selectorLabels" -}}
app.kubernetes.io/name: {{ include "podprofit.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Common labels. Takes (dict "root" $ "component" "gateway"). */}}
{{- define "podprofit.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "podprofit.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: podprofit
{{- end -}}

{{/* Image reference: repository@digest when a digest is given, else repository:tag. */}}
{{- define "podprofit.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag | toString) -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL, APP_SECRET and (optionally) OPERATOR_TOKEN. */}}
{{- define "podprofit.secretName" -}}
{{- required "existingSecret is required: the name of a Secret with DATABASE_URL, APP_SECRET and optionally OPERATOR_TOKEN (see the chart README)" .Values.existingSecret -}}
{{- end -}}

{{/*
PUBLIC_ORIGIN: config.publicOrigin (scheme, host, optional port; a trailing slash is dropped),
else what the gateway derives from its PORT. Fails the render on a path, query or credentials.
*/}}
{{- define "podprofit.publicOrigin" -}}
{{- $origin := default (printf "http://localhost:%d" (int .Values.gateway.port)) .Values.config.publicOrigin | trimSuffix "/" -}}
{{- if not (regexMatch "^https?://[^/?#@\\s]+$" $origin) -}}
{{- fail (printf "config.publicOrigin must be an origin like https://podprofit.example.com (scheme, host, optional port; no path), not %q" .Values.config.publicOrigin) -}}
{{- end -}}
{{- $origin -}}
{{- end -}}

{{/*
ETSY_REDIRECT_URI: config.etsyRedirectUri, else the callback on the public origin (as the
gateway derives it). The sandbox registers the same URL, so demo-mode connections match it.
*/}}
{{- define "podprofit.etsyRedirectUri" -}}
{{- default (printf "%s/api/connections/etsy/callback" (include "podprofit.publicOrigin" .)) .Values.config.etsyRedirectUri -}}
{{- end -}}

{{/* The sandbox Service's URL (SANDBOX_URL of the gateway and workers). */}}
{{- define "podprofit.sandboxUrl" -}}
{{- printf "http://%s:%d" (include "podprofit.componentName" (dict "root" . "component" "sandbox")) (int .Values.sandbox.port) -}}
{{- end -}}

{{/* SANDBOX_ADMIN_TOKEN from the Secret: required (no default token exists), so a missing key stops the pods. */}}
{{- define "podprofit.sandboxAdminTokenEnv" -}}
- name: SANDBOX_ADMIN_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "podprofit.secretName" . }}
      key: {{ .Values.secretKeys.sandboxAdminToken }}
{{- end -}}

{{/*
Seconds a pod may take to stop: ceil(shutdownTimeoutMs / 1000) + margin + extra.
Takes (dict "root" $ "extra" <seconds, e.g. the gateway's preStop sleep>).
*/}}
{{- define "podprofit.terminationGracePeriodSeconds" -}}
{{- $shutdown := div (add (int .root.Values.shutdownTimeoutMs) 999) 1000 -}}
{{- add $shutdown (int .root.Values.terminationGraceMarginSeconds) (int .extra) -}}
{{- end -}}

{{/*
Environment every process reads. Takes (dict "root" $ "app" "<process>" "poolSize" <n>).
*/}}
{{- define "podprofit.env" -}}
{{- $root := .root -}}
{{- $secret := include "podprofit.secretName" $root -}}
- name: APP
  value: {{ .app | quote }}
- name: NODE_ENV
  value: "production"
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.databaseUrl }}
- name: DATABASE_POOL_SIZE
  value: {{ .poolSize | int | quote }}
- name: APP_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.appSecret }}
- name: OPERATOR_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.operatorToken }}
      optional: true
{{- /* Key rotation (ADR 0035): optional; without them, v1 from APP_SECRET. */}}
- name: TOKEN_ENCRYPTION_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.tokenEncryptionKeys }}
      optional: true
{{- if $root.Values.config.tokenEncryptionKeyCurrent }}
- name: TOKEN_ENCRYPTION_KEY_CURRENT
  value: {{ $root.Values.config.tokenEncryptionKeyCurrent | int | quote }}
{{- end }}
{{- if $root.Values.secretKeys.redisUrl }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.redisUrl }}
{{- else }}
- name: REDIS_URL
  value: {{ required "config.redisUrl is required (or secretKeys.redisUrl)" $root.Values.config.redisUrl | quote }}
{{- end }}
- name: REDIS_PREFIX
  value: {{ $root.Values.config.redisPrefix | quote }}
- name: SUPPORT_EMAIL
  value: {{ $root.Values.config.supportEmail | quote }}
- name: LOG_LEVEL
  value: {{ $root.Values.config.logLevel | quote }}
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ $root.Values.shutdownTimeoutMs | int | quote }}
{{- /* Live mode with both Etsy keys in the Secret; demo mode (the sandbox) without them. */}}
- name: ETSY_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.etsyApiKey }}
      optional: true
- name: ETSY_SHARED_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.etsySharedSecret }}
      optional: true
- name: PUBLIC_ORIGIN
  value: {{ include "podprofit.publicOrigin" $root | quote }}
- name: ETSY_REDIRECT_URI
  value: {{ include "podprofit.etsyRedirectUri" $root | quote }}
{{- with $root.Values.config.webhookPublicUrl }}
- name: WEBHOOK_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
- name: ETSY_WEBHOOK_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $root.Values.secretKeys.etsyWebhookSecret }}
      optional: true
- name: ETSY_REQUESTS_PER_SECOND
  value: {{ $root.Values.config.etsyRequestsPerSecond | default 10 | int | quote }}
- name: PRINTIFY_REQUESTS_PER_MINUTE
  value: {{ $root.Values.config.printifyRequestsPerMinute | default 600 | int | quote }}
{{- if $root.Values.sandbox.enabled }}
- name: SANDBOX_URL
  value: {{ include "podprofit.sandboxUrl" $root | quote }}
{{ include "podprofit.sandboxAdminTokenEnv" $root }}
{{- end }}
{{- with $root.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
Startup and readiness on GET /healthz (PostgreSQL, Redis and, for workers, the queue);
liveness on GET /livez (the process answers), so a dependency outage takes pods out of
rotation without restarting them. Takes (dict "root" $ "port" "<container port name>").
*/}}
{{- define "podprofit.probes" -}}
startupProbe:
  httpGet:
    path: /healthz
    port: {{ .port }}
  {{- toYaml .root.Values.probes.startup | nindent 2 }}
readinessProbe:
  httpGet:
    path: /healthz
    port: {{ .port }}
  {{- toYaml .root.Values.probes.readiness | nindent 2 }}
livenessProbe:
  httpGet:
    path: /livez
    port: {{ .port }}
  {{- toYaml .root.Values.probes.liveness | nindent 2 }}
{{- end -}}

{{/* Pod-level settings shared by every workload. */}}
{{- define "podprofit.podSpecCommon" -}}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  # The root filesystem is read-only; node and its libraries may still want a /tmp.
  - name: tmp
    emptyDir: {}
{{- end -}}

{{/*
Fails the render when the processes could open more PostgreSQL connections than the
server allows: (gateway replicas + all worker replicas) x pool size, counting a worker that
KEDA scales at its maxReplicas. The sandbox is left
out on purpose: it never connects to PostgreSQL (it gets no DATABASE_URL).
*/}}
{{- define "podprofit.validateConnectionBudget" -}}
{{- $pool := int .Values.config.databasePoolSize -}}
{{- $total := mul (int .Values.gateway.replicas) $pool -}}
{{- range $name, $w := .Values.workers -}}
{{- if $w.enabled -}}
{{- $replicas := int $w.replicas -}}
{{- $keda := default (dict) $w.keda -}}
{{- if $keda.enabled -}}
{{- /* KEDA may scale the worker up to its maxReplicas. */ -}}
{{- $replicas = max $replicas (int $keda.maxReplicas) -}}
{{- end -}}
{{- $total = add $total (mul $replicas (int (default $pool $w.databasePoolSize))) -}}
{{- end -}}
{{- end -}}
{{- $budget := sub (int .Values.database.maxConnections) (int .Values.database.reservedConnections) -}}
{{- if gt (int $total) (int $budget) -}}
{{- fail (printf "PostgreSQL connection budget exceeded: the processes may open %d connections, but database.maxConnections - database.reservedConnections = %d. Lower replicas or pool sizes, or raise max_connections (see deploy/operating.md)." (int $total) (int $budget)) -}}
{{- end -}}
{{- end -}}

{{/*
Redis as KEDA's redis trigger wants it: host:port (keda.redisAddress, else from config.redisUrl,
credentials and database dropped), TLS ("true" for rediss://) and the database index.
*/}}
{{- define "podprofit.kedaRedisAddress" -}}
{{- if .Values.keda.redisAddress -}}
{{- .Values.keda.redisAddress -}}
{{- else -}}
{{- if .Values.secretKeys.redisUrl -}}
{{- fail "keda.redisAddress is required when the Redis URL is in the Secret (secretKeys.redisUrl): KEDA needs host:port, and the password in keda.redisPasswordSecretKey" -}}
{{- end -}}
{{- $url := required "config.redisUrl is required" .Values.config.redisUrl -}}
{{- $hostPort := regexReplaceAll "^rediss?://([^@/]*@)?([^/?#]+).*$" $url "${2}" -}}
{{- if regexMatch ":[0-9]+$" $hostPort -}}
{{- $hostPort -}}
{{- else -}}
{{- printf "%s:6379" $hostPort -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "podprofit.kedaRedisTLS" -}}
{{- if ne (toString .Values.keda.redisTLS) "" -}}
{{- .Values.keda.redisTLS | toString -}}
{{- else -}}
{{- hasPrefix "rediss://" (toString .Values.config.redisUrl) | toString -}}
{{- end -}}
{{- end -}}

{{- define "podprofit.kedaRedisDatabase" -}}
{{- if ne (toString .Values.keda.redisDatabaseIndex) "" -}}
{{- .Values.keda.redisDatabaseIndex | toString -}}
{{- else -}}
{{- $db := regexFind "/[0-9]+$" (regexReplaceAll "[?#].*$" (toString .Values.config.redisUrl) "") | trimPrefix "/" -}}
{{- default "0" $db -}}
{{- end -}}
{{- end -}}
