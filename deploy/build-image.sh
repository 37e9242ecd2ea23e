#!/usr/bin/env bash
# Builds Vigil's image with podman where no container registry can be reached: a Debian 12 base
# made by debootstrap from Debian's archive, with this machine's Node 20 and npm copied in, then
# the Dockerfile on top of it. Run as root from the repository root:
#
#   deploy/build-image.sh [TAG]          # default vigil:latest
#
# Needs debootstrap and podman (apt-get install debootstrap podman runc). Where the official
# node image can be pulled, plain `podman build -t vigil .` does the same.
# PODMAN_FLAGS: on machines whose kernel lets containers set no resource limits and mounts
# cgroups v1 beside v2 (this project's CI machines), crun refuses to start; runc with lowered
# limits works, and is the default here. Set PODMAN_FLAGS= to use podman's own defaults.
set -euo pipefail
TAG=${1:-vigil:latest}
BASE=localhost/vigil-node:20-bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PODMAN_FLAGS=${PODMAN_FLAGS---runtime runc}
# Within the limits this shell has: a container may lower them, not raise them.
LIMITS=(--ulimit "nofile=$(ulimit -n):$(ulimit -Hn)" --ulimit nproc=4096:4096)

node_version=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_version" = 20 ] || { echo "needs Node 20 on this machine (found $(node -v))" >&2; exit 1; }

if ! podman image exists "$BASE"; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$MIRROR"
  install -D -m 755 "$(command -v node)" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules"
  cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  # Node's headers, so native modules (better-sqlite3) compile without downloading them.
  node_headers=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")/include/node
  [ -d "$node_headers" ] && cp -a "$node_headers" "$root/usr/local/include/node"
  # The certificate authorities this machine added (a proxy's, a company's): npm in the build
  # reaches the registry the way this machine does.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
  fi
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV npm_config_nodedir=/usr/local' - "$BASE"
fi

# shellcheck disable=SC2086
podman $PODMAN_FLAGS build --format docker "${LIMITS[@]}" --build-arg "BASE=$BASE" -t "$TAG" .
echo "built $TAG"
