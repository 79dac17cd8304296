#!/usr/bin/env bash
# Builds a local stand-in for the public Node base image that docker/Dockerfile names
# (node:<major>.<minor>-bookworm-slim). Docker Hub is unreachable from these machines, so the image is
# made here: Debian bookworm (debootstrap minbase, from Debian's mirror) with this machine's
# Node and npm, its CA bundle, and a `node` user (uid/gid 1000, home /home/node) as in the
# official image; then imported under the official tag, so the Dockerfile stays unchanged.
#
# Exit codes: 0 the image is ready; 3 Docker cannot be had here (the caller skips its
# container tests and says why); anything else is a real failure.
#
# Also starts dockerd in the background when no daemon answers, and leaves it running
# for the steps after this one; its pid goes to $DOCKERD_PIDFILE, so the caller that
# wanted it started can stop it (docker/smoke.sh does).
set -euo pipefail

# The tag the Dockerfile's stages start from; the machine's Node must be that release line,
# or the stand-in would carry another Node under the tag's name.
TAG=$(sed -n 's/^FROM \(node:[^ ]*\).*/\1/p' "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/Dockerfile" | head -n 1)
[ -n "$TAG" ] || { echo "base-image: docker/Dockerfile names no node:… base" >&2; exit 1; }
LINE=$(node -p 'process.versions.node.split(".").slice(0, 2).join(".")')
case $TAG in
  node:"$LINE"-*) ;;
  *) echo "base-image: this machine's Node is $(node --version), but docker/Dockerfile starts from $TAG; make its FROM lines node:$LINE-bookworm-slim" >&2; exit 1 ;;
esac
CACHE_DIR=/var/cache/swap-platform
# The Debian archive this machine's apt already uses (its first enabled entry with `main` whose
# URI is a Debian archive root, …/debian; deb822 .sources first, then one-line lists); any
# Debian archive serves bookworm. DEBIAN_MIRROR overrides it. No mirror host is named here.
apt_mirror() {
  local etc=${APT_ETC:-/etc/apt} files=() file
  for file in "$etc"/sources.list.d/*.sources "$etc"/sources.list "$etc"/sources.list.d/*.list; do
    [ -f "$file" ] && files+=("$file")
  done
  [ ${#files[@]} -gt 0 ] || return 0
  # One awk over every file, printing at most one line (no `head` in a pipe: under pipefail a
  # writer cut off by SIGPIPE would end this script).
  awk '
    function archive(uri) { return uri ~ /^https?:\/\/[^ \t]+\/debian\/?$/ }
    function take(uri) { print uri; found = 1; exit }
    function flush(   n, i, u) {
      if (!found && uris != "" && comps ~ /(^|[ \t])main([ \t]|$)/ && enabled != "no") {
        n = split(uris, u, /[ \t]+/)
        for (i = 1; i <= n; i++) if (archive(u[i])) take(u[i])
      }
      uris = ""; comps = ""; enabled = ""; key = ""
    }
    FNR == 1 { flush(); deb822 = (FILENAME ~ /\.sources$/) }
    deb822 && /^[ \t]*$/ { flush(); next }
    deb822 && /^#/ { next }
    deb822 && /^[ \t]/ { if (key == "uris") uris = uris " " $0; else if (key == "components") comps = comps " " $0; next }
    deb822 {
      key = tolower($0); sub(/:.*/, "", key); value = $0; sub(/^[^:]*:[ \t]*/, "", value)
      if (key == "uris") uris = value; else if (key == "components") comps = value; else if (key == "enabled") enabled = tolower(value)
      next
    }
    $1 == "deb" {
      line = $0; sub(/^deb[ \t]+/, "", line)
      if (line ~ /^\[/) sub(/^\[[^]]*\][ \t]*/, "", line)
      n = split(line, w, /[ \t]+/)
      if (archive(w[1])) for (i = 3; i <= n; i++) if (w[i] == "main") take(w[1])
    }
    END { if (!found) flush() }
  ' "${files[@]}"
}
MIRROR=${DEBIAN_MIRROR:-$(apt_mirror)}
SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")

log() { echo "base-image: $*"; }
skip() {
  echo "base-image: $*" >&2
  exit 3
}

need_root() { [ "$(id -u)" = 0 ] || skip "$1 needs root"; }

# --- Tools: Debian's docker.io and debootstrap, installed when missing. ---
have_tools() { command -v docker >/dev/null && command -v dockerd >/dev/null && command -v debootstrap >/dev/null; }
if ! have_tools; then
  need_root "installing docker.io and debootstrap"
  log "installing docker.io and debootstrap"
  apt-get update -qq || skip "apt-get update failed, cannot install docker.io and debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io debootstrap >/dev/null ||
    skip "apt-get install docker.io debootstrap failed"
  have_tools || skip "docker, dockerd or debootstrap is still not on PATH after installing docker.io and debootstrap (PATH=$PATH)"
fi

# --- The daemon: reuse one that answers, otherwise start one and wait (bounded). ---
if ! docker_err=$(docker info 2>&1 >/dev/null); then
  case $docker_err in
    *"permission denied"*) skip "a Docker daemon runs but this user may not use it ($(id -un) cannot open /var/run/docker.sock)" ;;
  esac
  need_root "starting dockerd (no Docker daemon answers)"
  log "no Docker daemon answers; starting dockerd (log: /var/log/dockerd.log)"
  mkdir -p /var/lib/docker
  log_lines=$(wc -l 2>/dev/null </var/log/dockerd.log || echo 0) # this daemon's lines come after
  # setsid: the daemon must outlive this script and not get the caller's signals. Every
  # descriptor beyond 0-2 is closed first: a daemon holding a pipe of the caller's (CI's
  # output, a `tee`) keeps that pipe open, and whoever reads it never sees it end.
  # Appends: the log of an earlier daemon stays readable.
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && [ "$fd" != 255 ] && eval "exec $fd>&-"
    done
    exec setsid dockerd --data-root /var/lib/docker >>/var/log/dockerd.log 2>&1 </dev/null
  ) &
  dockerd_pid=$!
  [ -z "${DOCKERD_PIDFILE:-}" ] || echo "$dockerd_pid" >"$DOCKERD_PIDFILE"
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$dockerd_pid" 2>/dev/null || break # it died: no point waiting
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    log_from=$((log_lines + 1))
    tail -n "+$log_from" /var/log/dockerd.log | tail -n 15 >&2 || true
    kill -0 "$dockerd_pid" 2>/dev/null && skip "the Docker daemon did not answer within 60 s (see /var/log/dockerd.log)"
    skip "dockerd exited at start (see /var/log/dockerd.log)"
  fi
fi

# --- Is the image already what this script would build? ---
# The key covers this script, the Node and npm that go in, and the CA bundle.
NODE_BIN=$(readlink -f "$(command -v node)")
NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")") # …/lib/node_modules/npm
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
[ -f "$CA_BUNDLE" ] || { echo "base-image: no CA bundle at $CA_BUNDLE" >&2; exit 1; }
SCRIPT_HASH=$(sha256sum "$SCRIPT" | cut -c1-16)
KEY=$( (echo "$SCRIPT_HASH"; "$NODE_BIN" --version; cat "$NPM_DIR/package.json"; cat "$CA_BUNDLE") | sha256sum | cut -c1-16)
if [ "$(docker image inspect "$TAG" --format '{{ index .Config.Labels "swap-platform.base-key" }}' 2>/dev/null || true)" = "$KEY" ]; then
  log "$TAG is up to date (key $KEY)"
  exit 0
fi

need_root "building the base image (debootstrap, chroot)"
ROOT=$(mktemp -d /var/tmp/swap-base-root.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT

# --- Debian bookworm, minbase: cached as a tarball keyed by this script. ---
# debootstrap takes minutes; the cache makes a second run take seconds.
mkdir -p "$CACHE_DIR"
ROOTFS_TAR="$CACHE_DIR/bookworm-minbase-$SCRIPT_HASH.tar"
if [ -f "$ROOTFS_TAR" ]; then
  log "Debian bookworm from the cache ($ROOTFS_TAR)"
  tar -C "$ROOT" -xf "$ROOTFS_TAR"
else
  [ -n "$MIRROR" ] || skip "no Debian archive found in this machine's apt sources (/etc/apt/sources.list*): set DEBIAN_MIRROR to one (a Debian archive root, e.g. …/debian)"
  log "debootstrap --variant=minbase bookworm from $MIRROR (a few minutes, once)"
  start=$SECONDS
  debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >/var/log/swap-base-debootstrap.log 2>&1 || {
    tail -n 20 /var/log/swap-base-debootstrap.log >&2
    echo "base-image: debootstrap failed (log: /var/log/swap-base-debootstrap.log)" >&2
    exit 1
  }
  # What the official slim image also leaves out: package lists, downloaded packages,
  # documentation, manuals, translations, logs.
  rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/*.bin "$ROOT"/var/cache/apt/archives/*.deb \
    "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/usr/share/info/* "$ROOT"/usr/share/locale/* \
    "$ROOT"/usr/share/lintian "$ROOT"/var/log/*.log "$ROOT"/var/log/apt/* "$ROOT"/var/cache/debconf/*-old
  rm -f "$CACHE_DIR"/bookworm-minbase-*.tar # older script versions' caches
  tar -C "$ROOT" -cf "$ROOTFS_TAR.tmp" . && mv "$ROOTFS_TAR.tmp" "$ROOTFS_TAR"
  log "debootstrap took $((SECONDS - start)) s; cached as $ROOTFS_TAR"
fi

# --- Node and npm where the official image has them (/usr/local). ---
install -D -m 0755 "$NODE_BIN" "$ROOT/usr/local/bin/node"
mkdir -p "$ROOT/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$ROOT/usr/local/lib/node_modules/npm"
rm -rf "$ROOT/usr/local/lib/node_modules/npm/docs" "$ROOT/usr/local/lib/node_modules/npm/man"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"

# --- The machine's CA bundle: builds pass it to npm with NODE_EXTRA_CA_CERTS. ---
install -D -m 0644 "$CA_BUNDLE" "$ROOT/etc/ssl/certs/ca-certificates.crt"

# --- The official image's unprivileged user. ---
chroot "$ROOT" groupadd --gid 1000 node
chroot "$ROOT" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

chroot "$ROOT" /usr/local/bin/node --version >/dev/null || { echo "base-image: node does not run inside the image" >&2; exit 1; }

log "importing $TAG"
tar -C "$ROOT" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$("$NODE_BIN" --version | tr -d v)" \
  --change 'CMD ["node"]' \
  --change "LABEL swap-platform.base-key=$KEY" \
  - "$TAG" >/dev/null
log "$TAG ready: $(docker image inspect "$TAG" --format '{{ .Size }}' | awk '{ printf "%.0f MB", $1 / 1e6 }') (Node $("$NODE_BIN" --version), key $KEY)"
