#!/usr/bin/env bash
# Installs exactly the dependency tree package-lock.json pins. Arguments go to npm.
#
# Why not plain `npm ci`: the registry our machines reach serves only the Linux builds of
# packages with per-platform binaries (@swc/core-*, @unrs/resolver-binding-*, ...), so a
# lockfile written here lacks the other platforms' optional entries and `npm ci` rejects it
# as "out of sync". When, and only when, npm ci fails for that reason, this script runs
# `npm install` against the same lockfile and then checks (check-lock.cjs) that every pinned
# package kept its exact entry and that only optional packages were added. A lockfile that
# is really stale still fails. Once the lockfile is complete, the first branch always wins.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log="$(mktemp)"
committed="$(mktemp)"
trap 'rm -f "$log" "$committed"' EXIT
cp package-lock.json "$committed"

if npm ci "$@" >"$log" 2>&1; then
  grep -v '^npm warn' "$log" | tail -n 3 || true
  exit 0
fi

if ! grep -q 'can only install packages when your package.json and package-lock.json' "$log"; then
  cat "$log" >&2
  exit 1
fi

missing="$(grep -c 'Missing: ' "$log" || true)"
echo "npm-ci: npm ci rejected the lockfile (${missing} entries missing, e.g. $(grep -m1 -o 'Missing: [^ ]*' "$log" | cut -d' ' -f2)); installing with npm install and checking it against the lockfile"
if ! npm install "$@" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -v '^npm warn' "$log" | tail -n 3 || true
status=0
node "$here/check-lock.cjs" "$committed" package-lock.json || status=$?
# Leave the committed lockfile in place whatever npm install wrote.
cp "$committed" package-lock.json
exit "$status"
