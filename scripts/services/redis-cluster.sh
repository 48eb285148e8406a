#!/usr/bin/env bash
# A Redis Cluster of three masters (no replicas) for photowire's tests, on free 127.0.0.1 ports
# under a temp folder; nothing is written to disk besides that folder (no RDB, no AOF).
#
#   scripts/services/redis-cluster.sh start      prints KEY=VALUE lines on stdout:
#       REDIS_CLUSTER_DIR  REDIS_CLUSTER_NODES=127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3
#   scripts/services/redis-cluster.sh stop DIR   stops the three servers by their pids, removes DIR
#                                                (STOP_FAST=1: SIGKILL instead of SIGTERM)
#
# Installs Debian's redis-server (which brings redis-cli) when missing (needs root). REDIS_CLUSTER_SIZE
# sets the number of masters (default 3, the fewest `redis-cli --cluster create` accepts).
set -euo pipefail

started_at=$(date +%s%N)
say() { printf 'redis-cluster [%5.1fs] %s\n' "$(( ($(date +%s%N) - started_at) / 1000000 ))e-3" "$*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { echo "usage: $0 start | stop DIR" >&2; exit 2; }

free_port() {
  # Cluster nodes also listen on port + 10000 (the cluster bus): both must be free. Both are taken
  # below the kernel's ephemeral range (ip_local_port_range, 32768 by default), where the tests'
  # own client connections cannot hold them: a port that nothing listens on can still be a busy
  # client port, and its bind fails (seen once in a full run: "Address already in use").
  local p lo span
  lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  span=$(( lo - 10000 - 10000 ))
  [ "$span" -ge 1000 ] || span=0
  for _ in $(seq 50); do
    if [ "$span" -gt 0 ]; then p=$(( 10000 + RANDOM % span )); else p=$(( 20000 + RANDOM % 35000 )); fi
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && ! (exec 3<>"/dev/tcp/127.0.0.1/$((p + 10000))") 2>/dev/null; then
      echo "$p"; return 0
    fi
  done
  die "no free port pair found"
}

# Start one cluster node on a free port pair; prints the port. A node whose bind failed (another
# process took the port between the check and the bind) is started again on another pair.
start_node() {
  local port tries
  for tries in 1 2 3 4 5; do
    port=$(free_port)
    mkdir -p "$DIR/$port"
    # --daemonize no + & : the pid we keep is the server's own; protected mode off is safe on 127.0.0.1 only.
    redis-server --port "$port" --bind 127.0.0.1 --protected-mode no --cluster-enabled yes \
      --cluster-config-file "$DIR/$port/nodes.conf" --cluster-node-timeout 5000 \
      --dir "$DIR/$port" --save '' --appendonly no --logfile "$DIR/$port/redis.log" --daemonize no </dev/null >/dev/null 2>&1 &
    echo $! >"$DIR/node-$port.pid"
    for _ in $(seq 100); do
      redis-cli -p "$port" ping >/dev/null 2>&1 && { echo "$port"; return 0; }
      grep -q 'Address already in use' "$DIR/$port/redis.log" 2>/dev/null && break
      sleep 0.05
    done
    kill -KILL "$(cat "$DIR/node-$port.pid")" 2>/dev/null || true
    rm -f "$DIR/node-$port.pid"
    say "redis-server on $port did not start (log in $DIR/$port); trying another port"
  done
  die "no redis-server of the cluster started after 5 ports (logs in $DIR)"
}

stop() {
  local dir=${1:-${REDIS_CLUSTER_DIR:-}} f pid
  [ -n "$dir" ] && [ -d "$dir" ] || usage
  for f in "$dir"/node-*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    if [ "${STOP_FAST:-0}" = 1 ]; then kill -KILL "$pid" 2>/dev/null || true; else kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for f in "$dir"/node-*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
  say "stopped"
}

start() {
  if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] || die "redis-server/redis-cli missing: install Debian's redis-server (as root)"
    say "installing Debian's redis-server (redis-server or redis-cli missing)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  local n=${REDIS_CLUSTER_SIZE:-3} i port ports=() addrs=() nodes
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/photowire-redis-cluster.XXXXXX")
  trap 'code=$?; if [ $code -ne 0 ]; then for f in "$DIR"/node-*.pid; do [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null; done; say "start failed; logs kept in $DIR"; fi' EXIT
  for i in $(seq 1 "$n"); do
    port=$(start_node) || exit 1
    ports+=("$port"); addrs+=("127.0.0.1:$port")
  done
  say "${n} servers answer on ${ports[*]}"
  redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes >"$DIR/create.log" 2>&1 || die "redis-cli --cluster create failed: $(tail -3 "$DIR/create.log")"
  # The cluster is usable once every node agrees all 16384 slots are served.
  for port in "${ports[@]}"; do
    for _ in $(seq 200); do redis-cli -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && break; sleep 0.05; done
    redis-cli -p "$port" cluster info | grep -q '^cluster_state:ok' || die "node $port never reached cluster_state:ok"
  done
  say "cluster ok (16384 slots over ${n} masters)"
  nodes=$(IFS=,; echo "${addrs[*]}")
  printf '%s\n' "REDIS_CLUSTER_DIR=$DIR" "REDIS_CLUSTER_NODES=$nodes"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac
