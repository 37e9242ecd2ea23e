#!/usr/bin/env bash
# Runs Vigil's image as a user would and checks it: it serves and reports healthy, runs as a
# non-root user, reads a real plate photo with its own models, and keeps its data in the /data
# volume across a restart. Run as root after deploy/build-image.sh:
#
#   deploy/smoke-image.sh [TAG] [PHOTO]   # default vigil:latest; PHOTO: a car photo (JPEG)
#
# Without PHOTO it draws a plate scene (test/fixtures/plate-images.ts, needs npm ci here).
set -euo pipefail
TAG=${1:-vigil:latest}
PHOTO=${2:-}
PODMAN_FLAGS=${PODMAN_FLAGS---runtime runc}
# shellcheck disable=SC2206
P=(podman $PODMAN_FLAGS)
LIMITS=(--ulimit "nofile=$(ulimit -n):$(ulimit -Hn)" --ulimit nproc=4096:4096)
NAME=vigil-smoke-$$
VOLUME=$NAME-data
PORT=${SMOKE_PORT:-18080}
work=$(mktemp -d)
cleanup() { "${P[@]}" rm -f "$NAME" >/dev/null 2>&1 || true; "${P[@]}" volume rm -f "$VOLUME" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

if [ -z "$PHOTO" ]; then
  PHOTO=$work/car.jpg
  npx tsx -e "import('./test/fixtures/plate-images.ts').then(async (m) => require('fs').writeFileSync('$PHOTO', (await m.plateSceneJpeg({ text: 'KXT4071' })).jpeg))"
fi

start() { "${P[@]}" run -d --health-interval disable --name "$NAME" "${LIMITS[@]}" -p "127.0.0.1:$PORT:8080" -v "$VOLUME:/data" "$TAG" >/dev/null; }
wait_healthy() {
  for _ in $(seq 1 120); do
    curl -fsS "localhost:$PORT/healthz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  "${P[@]}" logs "$NAME" | tail -20; echo "FAIL: /healthz did not answer" >&2; exit 1
}
check() { if [ "$2" = "$3" ]; then echo "ok: $1 ($2)"; else echo "FAIL: $1: got '$2', want '$3'" >&2; exit 1; fi; }

start
wait_healthy
check "readyz" "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$PORT/readyz")" 200
check "runs as" "$("${P[@]}" exec "$NAME" id -un)" vigil
check "image health check" "$("${P[@]}" inspect --format '{{.Config.Healthcheck.Test}}' "$NAME" | grep -c healthz)" 1
# Without systemd podman cannot schedule the check (it says so); run it once by hand.
"${P[@]}" healthcheck run "$NAME" 2>/dev/null && echo "ok: the image's HEALTHCHECK passes"

token=$("${P[@]}" exec "$NAME" node bin/vigil.js accounts create --email smoke@example.com --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')
started=$(date +%s%N)
answer=$(curl -fsS -H "Authorization: Token $token" -F "upload=@$PHOTO" -F regions=us "localhost:$PORT/v1/plate-reader/")
echo "plate read in $(( ($(date +%s%N) - started) / 1000000 )) ms (first call: models load): $(echo "$answer" | node -pe 'JSON.parse(require("fs").readFileSync(0)).results.map(r => r.plate).join(",")')"
if [ -z "${2:-}" ]; then check "plate" "$(echo "$answer" | node -pe 'JSON.parse(require("fs").readFileSync(0)).results[0].plate')" kxt4071; fi

"${P[@]}" restart "$NAME" >/dev/null
wait_healthy
check "calls after a restart (data in the volume)" "$(curl -fsS -H "Authorization: Token $token" "localhost:$PORT/v1/statistics/" | node -pe 'JSON.parse(require("fs").readFileSync(0)).usage.calls')" 1
echo "smoke test passed: $TAG"
