#!/bin/sh
# Starts the process named by $APP (set at build time by ARG APP, overridable at run time),
# or by the first argument. `exec` replaces this shell with node, so SIGTERM reaches node
# directly and its shutdown hooks run.
#   entrypoint.sh                 -> the process in $APP
#   entrypoint.sh --flag          -> the process in $APP, with that flag
#   entrypoint.sh matcher         -> that process
#   entrypoint.sh sandbox --idle-when-live
#                                 -> the sandbox, idle (no port) when real Etsy credentials are set
#   entrypoint.sh cli migrate     -> node dist/gateway/src/cli.js migrate
#   entrypoint.sh node -v         -> any other command, as given
set -eu

if [ "$#" -gt 0 ] && [ "${1#-}" = "$1" ]; then
  app="$1"
  shift
else
  app="${APP:-gateway}"
fi

case "$app" in
  # The gateway's V8 old-generation limit (MB): V8 collects by it, see docs/adr/0039-csv-export.md.
  gateway) exec node --max-old-space-size="${GATEWAY_MAX_OLD_SPACE_MB:-512}" dist/gateway/src/main.js "$@" ;;
  etsy-sync|printify-sync|matcher|fx-rate) exec node "dist/services/$app/src/main.js" "$@" ;;
  # Simulated Etsy, Printify and ECB for demo mode. Without --idle-when-live it exits 1 when
  # real Etsy credentials (ETSY_API_KEY, ETSY_SHARED_SECRET) are set.
  sandbox) exec node dist/services/sandbox/src/main.js "$@" ;;
  # Creates the database if missing and migrates under an advisory lock: safe to run twice.
  migrate) exec node dist/gateway/src/cli.js prepare "$@" ;;
  cli) exec node dist/gateway/src/cli.js "$@" ;;
esac

if [ "$app" = "${APP:-}" ]; then
  echo "entrypoint: unknown APP '$app' (gateway|etsy-sync|printify-sync|matcher|fx-rate|sandbox|migrate)" >&2
  exit 64
fi
exec "$app" "$@"
