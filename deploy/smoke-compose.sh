#!/usr/bin/env bash
# Runs compose.yaml's scaled-out set with podman-compose and checks it as a user would: the API
# answers, two workers analyse camera uploads through Redis with images in the S3 store, plate
# reads work, and uploads are still analysed with one worker stopped. Run as root after
# deploy/build-image.sh, from the repository root:
#
#   deploy/smoke-compose.sh [TAG]        # default vigil:latest
#
# PostgreSQL, Redis and the S3 store are stand-ins built from Debian's packages and npm
# (deploy/stand-ins/), since this project's machines cannot pull the official images; the
# compose file, the Vigil image and their wiring are the ones users run. SMOKE_KEEP=1 leaves
# the set running for a look (podman-compose -p vigil-smoke down -v removes it).
set -euo pipefail
TAG=${1:-vigil:latest}
PROJECT=vigil-smoke
PORT=${SMOKE_PORT:-18090}
work=$(mktemp -d)
# This machine's podman: runc, and limits no higher than this shell's (see build-image.sh).
cat > "$work/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -n):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF=$work/containers.conf
compose() { podman-compose -p "$PROJECT" -f compose.yaml "$@"; }
cleanup() { compose down -v >/dev/null 2>&1 || true; podman volume rm -f "${PROJECT}_postgres-data" "${PROJECT}_redis-data" "${PROJECT}_s3-data" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
[ -n "${SMOKE_KEEP:-}" ] && trap - EXIT
check() { if [ "$2" = "$3" ]; then echo "ok: $1 ($2)"; else echo "FAIL: $1: got '$2', want '$3'" >&2; compose logs 2>&1 | tail -40 >&2; exit 1; fi; }
json() { node -pe "const d = JSON.parse(require('fs').readFileSync(0)); $1"; }

for part in postgres redis s3; do
  podman build -q -t "localhost/vigil-stand-in-$part" -f "deploy/stand-ins/$part.Containerfile" deploy/stand-ins >/dev/null
done
export VIGIL_IMAGE=localhost/$TAG VIGIL_PORT=$PORT PUBLIC_URL=http://localhost:$PORT
export POSTGRES_IMAGE=localhost/vigil-stand-in-postgres REDIS_IMAGE=localhost/vigil-stand-in-redis S3_IMAGE=localhost/vigil-stand-in-s3
export S3_ACCESS_KEY=S3RVER S3_SECRET_KEY=S3RVER   # the only key s3rver takes

compose up -d >/dev/null 2>&1
for _ in $(seq 1 180); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$PORT/readyz")" = 200 ] && break
  sleep 1
done
check "api ready" "$(curl -s -o /dev/null -w '%{http_code}' "localhost:$PORT/readyz")" 200
check "workers running" "$(podman ps --filter "name=${PROJECT}_worker" --format '{{.Names}}' | wc -l)" 2

api=${PROJECT}_api_1
token=$(podman exec "$api" node bin/vigil.js accounts create --email smoke@example.com --json | json 'd.token')
podman exec "$api" node bin/vigil.js licenses create --account smoke@example.com --size 5 --json >/dev/null
npx tsx -e "
  import('./test/fixtures/plate-images.ts').then(async (m) => {
    const fs = require('fs');
    const car = (await m.plateSceneJpeg({ text: 'KXT4071' })).jpeg;
    fs.writeFileSync('$work/car.jpg', car);
  })" 2>/dev/null
upload() { curl -fsS -H "Authorization: Token $token" -F camera_id="$1" -F "upload=@$2" "localhost:$PORT/v1/camera-monitoring/create-log/" >/dev/null; }
license=$(curl -fsS -H "Authorization: Token $token" "localhost:$PORT/v1/camera-monitoring/licenses/" | json 'd[0].id')
logs() { curl -fsS -H "Authorization: Token $token" "localhost:$PORT/v1/camera-monitoring/$license/cameras/$1/logs/"; }
wait_logs() {
  for _ in $(seq 1 120); do
    [ "$(logs "$1" | json "d.filter(l => l.status !== 'pending_retry').length")" -ge "$2" ] && return 0
    sleep 1
  done
}

# One upload per camera per CAMERA_UPLOAD_INTERVAL_SECONDS (15 minutes): two cameras, one each.
upload gate-1 "$work/car.jpg"; sleep 1.1; upload gate-2 "$work/car.jpg"
wait_logs gate-1 1; wait_logs gate-2 1
check "uploads analysed by the workers" "$(logs gate-1 | json "d[0].status"), $(logs gate-2 | json "d[0].status")" "normal, normal"
check "snapshot served from the S3 store" "$(curl -s -o /dev/null -w '%{http_code}' "$(logs gate-1 | json 'd[0].snapshot')")" 200
check "images in the bucket" "$(podman exec "${PROJECT}_s3_1" sh -c 'ls /data/vigil >/dev/null && echo yes')" yes
check "plate read by the api" "$(curl -fsS -H "Authorization: Token $token" -F "upload=@$work/car.jpg" "localhost:$PORT/v1/plate-reader/" | json 'd.results[0].plate')" kxt4071

podman stop "${PROJECT}_worker_1" >/dev/null
upload gate-3 "$work/car.jpg"
wait_logs gate-3 1
check "analysed with one worker stopped" "$(logs gate-3 | json "d[0].status")" normal
echo "compose smoke test passed: $TAG, 1 api, 2 workers, PostgreSQL, Redis, S3"
