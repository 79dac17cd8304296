#!/usr/bin/env bash
# Container smoke test (issue 12): builds the production image and runs it the way a
# cluster would, against this machine's PostgreSQL, Redis and NATS:
#   1. the base image stand-in (docker/base-image.sh), then the image (build time, size);
#   2. the migrations, from the image, into a database of this run's own;
#   3. every service in its own container (read-only root filesystem, all capabilities
#      dropped, no-new-privileges, uid 1000), each until its admin port answers /readyz 200;
#   4. the token list through the containerised api-gateway (200, not empty);
#   5. 200 requests through the gateway, then each container's memory (for the chart's
#      requests and limits), then a graceful stop (SIGTERM → exit code 0).
# Exit codes: 0 passed; 3 Docker cannot be had here (skip, reason on the last line of
# stderr as `smoke: skipped: <reason>`, and in $SMOKE_SKIP_FILE when that is set);
# anything else failed.
# A Docker daemon this test had to start is stopped at the end (SMOKE_KEEP_DOCKERD=1
# keeps it, for a developer running it again and again), so nothing of it outlives the run.
# Every wait is bounded; containers, the database, the NATS stream and the Redis keys of
# the run are removed on exit. Ports: SMOKE_PORT_BASE (13000) + 0…7 for the services,
# + 1000 for their admin ports, so a developer's platform on 3000–4007 is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

T0=$SECONDS
RUN=$$
IMAGE=${SMOKE_IMAGE:-swap-platform:smoke}
PORT_BASE=${SMOKE_PORT_BASE:-13000}
# Eight client ports from the base, and their admin ports 1000 above.
if ! [[ $PORT_BASE =~ ^[0-9]{1,5}$ ]] || ((10#$PORT_BASE < 1024 || 10#$PORT_BASE > 64528)); then
  echo "smoke: FAILED: SMOKE_PORT_BASE must be a port number from 1024 to 64528 (its services take base…base+7 and base+1000…base+1007), not '$PORT_BASE'" >&2
  exit 1
fi
PORT_BASE=$((10#$PORT_BASE))
ADMIN_BASE=$((PORT_BASE + 1000))
DB_NAME=swap_smoke_$RUN
DATABASE_URL=postgresql://postgres@127.0.0.1:5432/$DB_NAME
NATS_URL=nats://127.0.0.1:4222
REDIS_URL=redis://127.0.0.1:6379
PREFIX=smoke_$RUN # NATS subjects and streams, Redis keys: apart from tests and dev runs
# Start order is irrelevant (each waits for its dependencies); the list sets the ports.
SERVICES=(api-gateway swap-gateway quote-builder relay-tracker oracle-candles key-registry sponsorship-keys partner-portal-api)

log() { echo "smoke: $*"; }
declare -A PORT
for i in "${!SERVICES[@]}"; do PORT[${SERVICES[$i]}]=$((PORT_BASE + i)); done
port_of() { echo "${PORT[$1]}"; }
admin_of() { echo $(($(port_of "$1") + 1000)); }
container_of() { echo "swap-smoke-$RUN-$1"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The hardening every service container runs with (as the chart's securityContext does).
HARDENED=(--network host --read-only --cap-drop ALL --security-opt no-new-privileges --user 1000:1000)
# No tmpfs even for /tmp: nothing in the services writes to the filesystem.

fail() {
  echo "smoke: FAILED: $1" >&2
  if [ -n "${2:-}" ]; then
    echo "smoke: last 50 log lines of $2:" >&2
    docker logs --tail 50 "$2" 2>&1 | sed 's/^/  | /' >&2 || true
  fi
  exit 1
}

IMAGE_BUILT=
DOCKERD_PIDFILE=$(mktemp)
export DOCKERD_PIDFILE
stop_started_dockerd() {
  local pid
  pid=$(cat "$DOCKERD_PIDFILE" 2>/dev/null || true)
  rm -f "$DOCKERD_PIDFILE"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  if [ "${SMOKE_KEEP_DOCKERD:-0}" = 1 ]; then
    log "leaving the Docker daemon this test started running (pid $pid, SMOKE_KEEP_DOCKERD=1)"
    return 0
  fi
  log "stopping the Docker daemon this test started (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  echo "smoke: dockerd (pid $pid) did not stop within 30 s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT
  if [ -n "$IMAGE_BUILT" ]; then
    docker ps -aq --filter "label=swap-smoke=$RUN" | xargs -r docker rm -f >/dev/null 2>&1 || true
    # From the image itself, so the machine needs no psql or NATS CLI: this run's
    # database, its JetStream stream and its Redis keys.
    timeout 60 docker run --rm --network host --user 1000:1000 -e DB_NAME="$DB_NAME" -e PREFIX="$PREFIX" -e NATS_URL="$NATS_URL" -e REDIS_URL="$REDIS_URL" \
      "$IMAGE" node -e '
        const { Client } = require("pg");
        const Redis = require("ioredis");
        const { removePrefixedStreams } = require("./dist/libs/messaging/src/index.js");
        (async () => {
          const pg = new Client({ connectionString: "postgresql://postgres@127.0.0.1:5432/postgres" });
          await pg.connect();
          await pg.query(`DROP DATABASE IF EXISTS "${process.env.DB_NAME}" WITH (FORCE)`);
          await pg.end();
          await removePrefixedStreams(process.env.NATS_URL, process.env.PREFIX);
          const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
          await redis.connect();
          let cursor = "0";
          do {
            const [next, keys] = await redis.scan(cursor, "MATCH", process.env.PREFIX + "-*", "COUNT", 500);
            if (keys.length) await redis.del(...keys);
            cursor = next;
          } while (cursor !== "0");
          await redis.quit();
        })().catch((e) => { console.error("smoke: cleanup: " + e.message); process.exit(1); });
      ' || echo "smoke: cleanup of $DB_NAME / $PREFIX did not finish" >&2
  fi
  stop_started_dockerd
  log "total $((SECONDS - T0)) s (exit code $rc)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One smoke run at a time on a machine: runs share the Docker daemon (the one that started
# it stops it), the image tag and the default ports. A second run waits for the first.
# (The lock's descriptor is not passed on to dockerd: base-image.sh closes it.)
exec 9>/tmp/swap-platform-smoke.lock
if ! flock -n 9; then
  log "another smoke run holds /tmp/swap-platform-smoke.lock; waiting for it (at most 15 min)"
  flock -w 900 9 || fail "another smoke run held /tmp/swap-platform-smoke.lock for 15 minutes"
fi

# --- The backends this test runs against (.ci/run starts them). ---
for backend in PostgreSQL:5432 Redis:6379 NATS:4222; do
  port_open "${backend#*:}" || fail "${backend%:*} does not answer on 127.0.0.1:${backend#*:}"
done
for name in "${SERVICES[@]}"; do
  for p in "$(port_of "$name")" "$(admin_of "$name")"; do
    ! port_open "$p" || fail "port $p is taken (set SMOKE_PORT_BASE to move this test's ports)"
  done
done

# --- 1. Base image stand-in and the image. ---
base_err=$(mktemp)
set +e
timeout --foreground 300 bash docker/base-image.sh 2> >(tee "$base_err" >&2)
rc=$?
set -e
if [ "$rc" = 3 ]; then
  reason=$(grep -v '^\s*$' "$base_err" | tail -n 1 | sed 's/^base-image: //')
  rm -f "$base_err"
  echo "smoke: skipped: $reason" >&2
  [ -z "${SMOKE_SKIP_FILE:-}" ] || echo "$reason" >"$SMOKE_SKIP_FILE"
  exit 3
fi
rm -f "$base_err"
[ "$rc" = 0 ] || fail "docker/base-image.sh exited with $rc"

log "building $IMAGE (DOCKER_BUILDKIT=0)"
build_log=/tmp/swap-smoke-build-$RUN.log
build_start=$SECONDS
# Host network for the build: npm reaches the registry as this machine does. The CA
# bundle path exists inside because the base stand-in carries the machine's bundle.
# The intermediate stages are tagged too ($IMAGE-prod-deps, $IMAGE-build): the legacy
# builder's layer cache lives in images, and tagged ones survive the prune below, so the
# next run installs nothing when package.json and the lockfile did not change, and
# builds nothing when the sources did not. (Each later build finds the earlier stages
# in the cache: the three cost one.)
build() { DOCKER_BUILDKIT=0 timeout --foreground 480 docker build --network host -f docker/Dockerfile \
  --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt "$@" . >>"$build_log" 2>&1; }
: >"$build_log"
if ! build --target prod-deps -t "$IMAGE-prod-deps" || ! build --target build -t "$IMAGE-build" || ! build -t "$IMAGE"; then
  tail -n 50 "$build_log" >&2
  fail "docker build failed (whole log: $build_log)"
fi
IMAGE_BUILT=1
BUILD_SECONDS=$((SECONDS - build_start))
# Earlier builds' images, now untagged, would otherwise pile up run after run.
docker image prune -f --filter label=org.opencontainers.image.title=swap-platform >/dev/null || true
IMAGE_MB=$(docker image inspect "$IMAGE" --format '{{ .Size }}' | awk '{ printf "%.0f", $1 / 1e6 }')
log "build time: ${BUILD_SECONDS} s ($(grep -c ' ---> Using cache' "$build_log" || true) steps from cache)"
log "image size: ${IMAGE_MB} MB ($IMAGE)"
# Where the size goes (kB on disk, inside the image).
# Root in this throwaway container only, so that du can read every directory.
docker run --rm --user 0:0 --entrypoint sh "$IMAGE" -c '
  total=$(du -skx / | cut -f1); node=$(du -sk /usr/local/bin/node | cut -f1)
  npm=$(du -sk /usr/local/lib/node_modules/npm | cut -f1); modules=$(du -sk /app/node_modules | cut -f1); dist=$(du -sk /app/dist | cut -f1)
  echo "  on disk: $((total / 1024)) MB = Debian bookworm minbase $(((total - node - npm - modules - dist) / 1024)) MB + node $((node / 1024)) MB + npm $((npm / 1024)) MB (base image) + node_modules $((modules / 1024)) MB + dist $((dist / 1024)) MB"
  echo "  largest in /app/node_modules (MB):"
  cd /app/node_modules && du -sk -- * | sort -rn | head -n 8 | awk "{ printf \"    %5.1f %s\\n\", \$1 / 1024, \$2 }"'

# Every module the code in dist requires must be in the image: a package moved to
# devDependencies (anvil, solc, PGlite, Prisma CLI, TypeScript, React) and still required
# by shipped code would fail only on the code path that loads it, so check them all.
docker run --rm --network none --entrypoint node "$IMAGE" -e '
  const fs = require("fs"), path = require("path"), { createRequire } = require("module");
  const unresolved = [];
  (function walk(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith(".js")) {
        const req = createRequire(file);
        for (const [, spec] of fs.readFileSync(file, "utf8").matchAll(/require\("([^"]+)"\)/g)) {
          try { req.resolve(spec); } catch { unresolved.push(`${path.relative("/app", file)}: ${spec}`); }
        }
      }
    }
  })("/app/dist");
  if (unresolved.length) { console.error(unresolved.join("\n")); process.exit(1); }' ||
  fail "code in the image requires modules the image does not carry (above)"
log "every require() in dist resolves inside the image"

# --- 2. Migrations, from the image, into this run's database, and relay-tracker's JetStream streams. ---
log "migrations into $DB_NAME"
timeout --foreground 120 docker run --rm --name "$(container_of migrate)" --label "swap-smoke=$RUN" "${HARDENED[@]}" \
  -e DATABASE_URL="$DATABASE_URL" -e NATS_URL="$NATS_URL" -e NATS_SUBJECT_PREFIX="$PREFIX" \
  "$IMAGE" node --enable-source-maps dist/tools/migrate/src/main.js | sed 's/^/  /' ||
  fail "the migrations failed"

# --- 3. Every service in its own hardened container. ---
# Each signing key pair made for this run (docs/architecture/bus-signatures.md#the-keys): key-registry
# signs key sets (KEYSET), quote-builder the chain catalog (CATALOG), partner-portal-api its management
# requests (PORTAL), swap-gateway its usage counts (USAGE); the services that act on them trust the public halves.
signing_env=()
for prefix in KEYSET CATALOG PORTAL USAGE; do
  read -r signing public < <(node -e '
    const k = require("node:crypto").generateKeyPairSync("ed25519");
    console.log(k.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"), k.publicKey.export({ format: "der", type: "spki" }).toString("base64"));')
  export "${prefix}_SIGNING_KEY=$signing" "${prefix}_PUBLIC_KEY=$public"
  signing_env+=(-e "${prefix}_SIGNING_KEY" -e "${prefix}_PUBLIC_KEY")
done
upstreams=()
for name in swap-gateway quote-builder relay-tracker oracle-candles sponsorship-keys partner-portal-api; do
  var=UPSTREAM_$(echo "$name" | tr 'a-z-' 'A-Z_')_URL
  upstreams+=(-e "$var=http://127.0.0.1:$(port_of "$name")")
done
for name in "${SERVICES[@]}"; do
  docker run -d --name "$(container_of "$name")" --label "swap-smoke=$RUN" "${HARDENED[@]}" \
    -e HOST=127.0.0.1 -e PORT="$(port_of "$name")" -e ADMIN_PORT="$(admin_of "$name")" \
    -e DATABASE_URL="$DATABASE_URL" -e NATS_URL="$NATS_URL" -e NATS_ALLOW_ANONYMOUS=true -e NATS_SUBJECT_PREFIX="$PREFIX" \
    -e REDIS_URL="$REDIS_URL" -e CACHE_KEY_PREFIX="$PREFIX-$name" "${signing_env[@]}" \
    -e PORTAL_PUBLIC_URL="http://127.0.0.1:$(port_of api-gateway)" \
    "${upstreams[@]}" \
    "$IMAGE" node --enable-source-maps --min-semi-space-size=16 "dist/apps/$name/src/main.js" >/dev/null
done
log "started ${#SERVICES[@]} containers; waiting for /readyz on ports $ADMIN_BASE–$((ADMIN_BASE + ${#SERVICES[@]} - 1))"
ready_start=$SECONDS
for name in "${SERVICES[@]}"; do
  c=$(container_of "$name")
  deadline=$((SECONDS + 90))
  until [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$(admin_of "$name")/readyz")" = 200 ]; do
    [ "$(docker inspect -f '{{ .State.Running }}' "$c")" = true ] || fail "$name exited (code $(docker inspect -f '{{ .State.ExitCode }}' "$c"))" "$c"
    [ "$SECONDS" -lt "$deadline" ] || fail "$name not ready within 90 s: $(curl -s -m 2 "http://127.0.0.1:$(admin_of "$name")/readyz" || true)" "$c"
    sleep 0.5
  done
done
log "all ${#SERVICES[@]} services ready in $((SECONDS - ready_start)) s"

# --- 4. The token list through the containerised gateway. ---
GATEWAY=http://127.0.0.1:$(port_of api-gateway)
status=$(curl -s -m 10 -o /tmp/swap-smoke-tokens-$RUN.json -w '%{http_code}' "$GATEWAY/v1/swaps/tokens") || true
[ "$status" = 200 ] || fail "GET /v1/swaps/tokens answered $status: $(head -c 300 /tmp/swap-smoke-tokens-$RUN.json 2>/dev/null)" "$(container_of api-gateway)"
summary=$(node -e '
  const byChain = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const chains = Object.keys(byChain), tokens = Object.values(byChain).flat().length;
  if (!tokens) process.exit(1);
  console.log(`${tokens} tokens on ${chains.length} chains`);' /tmp/swap-smoke-tokens-$RUN.json) ||
  fail "GET /v1/swaps/tokens answered an empty list"
rm -f /tmp/swap-smoke-tokens-$RUN.json
log "GET $GATEWAY/v1/swaps/tokens: 200, $summary"

# --- 5. A small load through the gateway (every backend that serves a public read), then memory. ---
paths=(/v1/swaps/tokens /v1/swaps/tokens/0xa4b1.arbitrum /v1/be/oracle/markets /v1/openapi.json /portal/api/auth/csrf /v1/sponsorships/requests /v1/swaps/fees/partner?amount=1000000 /v1/swaps/submit-tx/status?txHash=0x01\&srcChainKey=0x92.sonic)
load_start=$SECONDS
# 8 curl processes in parallel, 20 URLs each (every URL with its own `-o /dev/null`).
codes=$(for i in $(seq 0 199); do echo "-o /dev/null $GATEWAY${paths[$((i % ${#paths[@]}))]}"; done |
  xargs -P 8 -n 60 curl -s -m 10 -w '%{http_code}\n' | sort | uniq -c | awk '{ printf "%s×%s ", $2, $1 }')
log "200 requests through the gateway in $((SECONDS - load_start)) s: $codes"
case " $codes" in *" 5"* | *" 000"*) fail "a request through the gateway failed (5xx or no answer): $codes" "$(container_of api-gateway)" ;; esac

# docker stats is the cgroup's view (what a limit counts, page cache partly included);
# RSS and its peak (VmHWM) are node's own, read from /proc in the container.
log "memory after the load:"
printf '  %-20s %-26s %9s %14s\n' SERVICE "docker stats (use / limit)" "RSS MiB" "peak RSS MiB"
for name in "${SERVICES[@]}"; do
  c=$(container_of "$name")
  usage=$(docker stats --no-stream --format '{{ .MemUsage }}' "$c")
  read -r rss hwm < <(docker exec "$c" awk '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 } END { printf "%.0f %.0f\n", r / 1024, h / 1024 }' /proc/1/status)
  printf '  %-20s %-26s %9s %14s\n' "$name" "$usage" "$rss" "$hwm"
done

# --- A graceful stop: exec-form command, so SIGTERM reaches node, which drains and exits 0. ---
for name in "${SERVICES[@]}"; do docker stop -t 20 "$(container_of "$name")" >/dev/null & done
wait
for name in "${SERVICES[@]}"; do
  code=$(docker inspect -f '{{ .State.ExitCode }}' "$(container_of "$name")")
  [ "$code" = 0 ] || fail "$name exited with $code on SIGTERM" "$(container_of "$name")"
done
log "all services stopped on SIGTERM with exit code 0"
log "passed (build ${BUILD_SECONDS} s, image ${IMAGE_MB} MB)"
