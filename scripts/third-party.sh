#!/usr/bin/env bash
# Measure the kit against the established repository's own third-party
# conformance servers (Go: clients/go/conformance, R: clients/rlang/conformance).
# Each is a bridge server that puts that repository's official hosted-service
# client in front of a hosted REST service; here that service is our own
# `tck serve --hosted`, started fresh for each client.
#
#   scripts/third-party.sh [--mend] [MIRROR] [go|r ...]
#
# --mend puts scripts/third-party-mend.mjs between the kit and each bridge server: it mends the
# faults already decided against the bridge servers (docs/third-party.md), to show what the kit
# says behind them. Its figures are not the servers' own.
#
# MIRROR is a git directory of neo4j-labs/agent-memory-tck (default below, or
# TCK_MIRROR). Needs: a built kit (npm run build), curl, Go >= 1.19 (go on PATH
# or /usr/lib/go-1.19/bin) and its module github.com/joho/godotenv reachable
# without a proxy, Rscript with plumber, httr2 and jsonlite. Nothing fetched is
# written inside the repository: the sources are extracted into a temporary
# directory that is removed at exit. Reports go to $TCK_THIRD_PARTY_OUT
# (default reports/third-party/<client>/report.json; reports/ is not committed).
#
# Build adaptation (Go only): Go 1.19's ServeMux has no method patterns
# ("POST /setup"), so every HandleFunc("POST /x") is rewritten to
# HandleFunc("/x"). For POST requests, the only ones the kit sends to a bridge
# server, this changes nothing; every Go figure is measured with it.
#
# Not part of npm test or CI: the mirror is not on a fresh machine.
set -u

DEFAULT_MIRROR=/work/.mirror/neo4j-labs+agent-memory-tck/repo
MIRROR=${TCK_MIRROR:-$DEFAULT_MIRROR}
MEND=0
if [ "${1:-}" = --mend ]; then MEND=1; shift; fi
if [ $# -gt 0 ] && [ "$1" != go ] && [ "$1" != r ]; then MIRROR=$1; shift; fi
CLIENTS=("$@")
[ ${#CLIENTS[@]} -eq 0 ] && CLIENTS=(go r)

die() { echo "third-party: $*" >&2; exit 2; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TCK="node $ROOT/bin/tck.js"
OUT=${TCK_THIRD_PARTY_OUT:-$ROOT/reports/third-party$( [ "$MEND" = 1 ] && echo -mended )}

git -C "$MIRROR" rev-parse --verify -q HEAD >/dev/null 2>&1 \
  || die "no git mirror of neo4j-labs/agent-memory-tck at $MIRROR (pass its path as the first argument or set TCK_MIRROR)"
[ -f "$ROOT/dist/bundle/cli.js" ] || ls "$ROOT"/dist/bundle/* >/dev/null 2>&1 \
  || die "the kit is not built; run npm run build"
command -v curl >/dev/null || die "curl is missing"
for c in "${CLIENTS[@]}"; do
  case $c in
    go)
      if ! command -v go >/dev/null; then
        [ -x /usr/lib/go-1.19/bin/go ] && PATH=/usr/lib/go-1.19/bin:$PATH \
          || die "go is missing (install Go >= 1.19, e.g. Debian's golang-1.19-go)"
      fi ;;
    r) command -v Rscript >/dev/null || die "Rscript is missing (install r-base-core, r-cran-plumber, r-cran-httr2, r-cran-jsonlite)" ;;
    *) die "unknown client \"$c\" (go or r)" ;;
  esac
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tck-third-party.XXXXXX")
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# wait_up URL SECONDS: until a POST answers (any status)
wait_up() {
  local i
  for ((i = 0; i < $2 * 4; i++)); do
    curl -s -o /dev/null -X POST -H 'content-type: application/json' -d '{}' "$1" && return 0
    sleep 0.25
  done
  return 1
}

COMMIT=$(git -C "$MIRROR" rev-parse HEAD)
echo "mirror: $MIRROR @ $COMMIT"
# `git archive` of the whole tree fails on one object there; archive the client folders only.
for c in "${CLIENTS[@]}"; do
  dir=clients/go; [ "$c" = r ] && dir=clients/rlang
  git -C "$MIRROR" archive HEAD "$dir" 2>"$WORK/archive.err" | tar -x -C "$WORK" && [ -d "$WORK/$dir" ] || die "could not extract $dir from $MIRROR"
done

run_one() {
  local c=$1 hp bp key log=$WORK/$1 rep=$OUT/$1
  mkdir -p "$log" "$rep"
  hp=$(free_port); bp=$(free_port)
  key=nams_thirdparty$(node -e 'console.log(require("crypto").randomBytes(12).toString("hex"))')
  $TCK serve --hosted --port "$hp" --api-key "$key" >"$log/hosted.log" 2>&1 &
  PIDS+=($!)
  wait_up "http://127.0.0.1:$hp/v1/conversations" 20 || { echo "$c: the hosted service did not start (see $log/hosted.log)"; return 1; }
  case $c in
    go)
      (cd "$WORK/clients/go" \
        && sed -i 's#HandleFunc("POST /#HandleFunc("/#' conformance/main.go \
        && GOPROXY=off GOFLAGS=-mod=mod go build -o "$WORK/go-bridge" ./conformance) >"$log/build.log" 2>&1 \
        || { echo "go: build failed:"; tail -5 "$log/build.log"; return 1; }
      MEMORY_ENDPOINT=http://127.0.0.1:$hp/v1 MEMORY_API_KEY=$key TCK_BRIDGE_PORT=$bp \
        "$WORK/go-bridge" >"$log/bridge.log" 2>&1 &
      PIDS+=($!) ;;
    r)
      (cd "$WORK/clients/rlang/conformance" \
        && MEMORY_ENDPOINT=http://127.0.0.1:$hp/v1 MEMORY_API_KEY=$key TCK_BRIDGE_PORT=$bp \
          exec Rscript server.R) >"$log/bridge.log" 2>&1 &
      PIDS+=($!) ;;
  esac
  wait_up "http://127.0.0.1:$bp/setup" 60 || { echo "$c: the bridge server did not start:"; tail -5 "$log/bridge.log"; return 1; }
  local target=http://127.0.0.1:$bp
  if [ "$MEND" = 1 ]; then
    local mp; mp=$(free_port)
    node "$ROOT/scripts/third-party-mend.mjs" "$mp" "$target" "http://127.0.0.1:$hp/v1" "$key" >"$log/mend.log" 2>&1 &
    PIDS+=($!)
    target=http://127.0.0.1:$mp
    wait_up "$target/setup" 10 || { echo "$c: the mend proxy did not start:"; tail -5 "$log/mend.log"; return 1; }
  fi
  $TCK run --url "$target" --tier platinum --reporter json --out "$rep" >"$log/run.log" 2>&1
  echo
  echo "== $c (official client $( [ "$c" = go ] && echo clients/go/memory || echo clients/rlang/neo4j.memory ) in front of tck serve --hosted)"
  [ "$MEND" = 1 ] && echo "   (MENDED by scripts/third-party-mend.mjs: the faults already decided against the server are repaired; not the server's own figures)"
  [ "$c" = go ] && echo "   (built with Go $(go env GOVERSION); ServeMux patterns rewritten \"POST /x\" -> \"/x\", no change for POST)"
  $TCK report "$rep/report.json" | grep -E '^(tier |bronze|silver|gold|platinum|[0-9]+ scenarios|Achieved)'
  $TCK report "$rep/report.json" | grep -E '^Cause ' | cut -c1-220
  echo "   report: $rep/report.json"
}

status=0
for c in "${CLIENTS[@]}"; do run_one "$c" || status=1; done
exit $status
