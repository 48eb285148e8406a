#!/usr/bin/env bash
# A real S3 server for photowire's tests: Debian's Ceph RADOS Gateway on one throw-away Ceph
# cluster (one monitor, one OSD kept in memory, no manager), all on 127.0.0.1 under a temp folder.
#
#   scripts/services/ceph-rgw.sh start     prints KEY=VALUE lines on stdout:
#       CEPH_RGW_DIR  S3_ENDPOINT  S3_REGION  S3_FORCE_PATH_STYLE  AWS_ACCESS_KEY_ID  AWS_SECRET_ACCESS_KEY
#   scripts/services/ceph-rgw.sh stop DIR  stops the three daemons by their pids and removes DIR
#                                          (about 6 s; STOP_FAST=1: SIGKILL, returns at once)
#
#   eval "$(scripts/services/ceph-rgw.sh start | sed 's/^/export /')"; ...; scripts/services/ceph-rgw.sh stop "$CEPH_RGW_DIR"
#
# Progress (with seconds since start) goes to stderr. Missing packages are installed with apt-get
# (Debian 12: ceph 16.2 "pacific"; about 60 packages, 270 MB, 15 s), which needs root.
# Settings: MEMSTORE_BYTES (OSD memory cap, default 1 GiB), S3_ACCESS_KEY / S3_SECRET_KEY (the
# test user's keys), CEPH_RGW_START_TIMEOUT (seconds to wait for the gateway, default 120).
# Measured start-up: docs/SCALING.md.
set -euo pipefail

started_at=$(date +%s%N)
say() { printf 'ceph-rgw [%5.1fs] %s\n' "$(( ($(date +%s%N) - started_at) / 1000000 ))e-3" "$*" >&2; }
die() { say "error: $*"; exit 1; }

usage() { echo "usage: $0 start | stop DIR" >&2; exit 2; }

# ---------------------------------------------------------------- stop
stop_daemon() {  # DIR NAME: SIGTERM, wait up to 10 s, then SIGKILL; only the pid we wrote at start
  local dir=$1 name=$2 pid
  [ -f "$dir/$name.pid" ] || return 0
  pid=$(cat "$dir/$name.pid")
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  # SIGKILL is certain; the kernel may take seconds more to free a memstore OSD's memory: not waited for.
  if [ "${STOP_FAST:-0}" = 1 ]; then kill -KILL "$pid" 2>/dev/null || true; return 0; fi
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

stop() {
  local dir=${1:-${CEPH_RGW_DIR:-}}
  [ -n "$dir" ] && [ -d "$dir" ] || usage
  [ -f "$dir/ceph.conf" ] || die "$dir is not a folder made by '$0 start' (no ceph.conf)"
  # The gateway first (it holds sessions with the OSD and the monitor), the monitor last.
  stop_daemon "$dir" rgw
  stop_daemon "$dir" osd
  stop_daemon "$dir" mon
  [ "${KEEP_DIR:-0}" = 1 ] || rm -rf "$dir"
  say "stopped"
}

# ---------------------------------------------------------------- start
install_if_missing() {
  local missing=() tool
  for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph ceph-authtool monmaptool curl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  /usr/bin/python3 -c 'import rados' 2>/dev/null || missing+=(python3-rados)
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and no apt-get to install Debian's ceph-mon ceph-osd radosgw ceph-common"
  [ "$(id -u)" = 0 ] || die "missing ${missing[*]}: run as root (apt-get install ceph-mon ceph-osd radosgw ceph-common curl)"
  say "installing Debian's ceph-mon ceph-osd radosgw ceph-common curl (missing: ${missing[*]})"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ceph-mon ceph-osd radosgw ceph-common curl >/dev/null
  say "installed"
}

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_for SECONDS WHAT CMD...: run CMD every 0.2 s until it succeeds.
wait_for() {
  local limit=$1 what=$2; shift 2
  local until_t=$(( $(date +%s) + limit ))
  while ! "$@"; do
    [ "$(date +%s)" -lt "$until_t" ] || die "no $what after ${limit}s (logs in $DIR/log)"
    sleep 0.2
  done
}

daemons_alive() {
  local name
  for name in "$@"; do
    kill -0 "$(cat "$DIR/$name.pid")" 2>/dev/null || die "$name exited during start-up (logs in $DIR/log)"
  done
}

write_conf() {
  # Facts behind the settings (each found by a failed or slow start):
  # - no cephx anywhere; radosgw's own defaults still ask for a secure mon session with cephx, so it
  #   needs "ms mon client mode = crc secure" and "auth client required = none" or it loops on -13;
  # - one OSD: pools of size 1 with 8 placement groups, and a high "mon max pg per osd";
  # - one monitor: propose map changes at once (paxos 0.01 s) instead of batching them for 1 s;
  # - tcp_nodelay on the beast frontend: small answers (GET, 412) in ~5 ms instead of 40-50 ms.
  # Not needed to work, only cheaper per request (docs/SCALING.md, "S3 against the local directory"):
  # every debug level 0/0 (Ceph formats log lines up to the second level into memory even when it
  # writes none, and radosgw writes 2-3 lines per request at its default 1/5), no op tracker in the
  # OSD, no ops or usage log in radosgw. Logs of a failed start then say less: raise `debug rgw`.
  cat >"$DIR/ceph.conf" <<EOF
[global]
fsid = $FSID
mon host = v2:127.0.0.1:$MON_PORT
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
ms bind msgr1 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = $DIR/keyring
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
pid file = $DIR/run/\$name.pid
log file = $DIR/log/\$name.log
mon cluster log file = $DIR/log/cluster.log
log to stderr = false
err to stderr = false
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
debug asok = 0/0
debug auth = 0/0
debug bdev = 0/0
debug buffer = 0/0
debug context = 0/0
debug crush = 0/0
debug filestore = 0/0
debug finisher = 0/0
debug heartbeatmap = 0/0
debug journal = 0/0
debug mon = 0/0
debug monc = 0/0
debug ms = 0/0
debug objclass = 0/0
debug objecter = 0/0
debug optracker = 0/0
debug osd = 0/0
debug paxos = 0/0
debug perfcounter = 0/0
debug rados = 0/0
debug rgw = 0/0
debug rgw sync = 0/0
debug throttle = 0/0
debug timer = 0/0
debug tp = 0/0

[mon]
mon data = $DIR/mon.\$id
mon data avail warn = 1
mon data avail crit = 0
paxos propose interval = 0.01
paxos min wait = 0.01

[osd]
osd data = $DIR/osd.\$id
osd objectstore = memstore
memstore device bytes = ${MEMSTORE_BYTES:-1073741824}
osd memory target = 939524096
osd enable op tracker = false

[client.rgw.photowire]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT tcp_nodelay=1
rgw data = $DIR/rgw
rgw enable apis = s3, admin
rgw thread pool size = 64
rgw enable ops log = false
rgw enable usage log = false
ms mon client mode = crc secure
auth client required = none
EOF
}

# radosgw creates its pools lazily, each costing about 2 s on the first CreateBucket/PutObject:
# make them all up front, from one python-rados session (one `ceph` CLI call costs ~1 s).
create_rgw_pools() {
  /usr/bin/python3 - "$DIR/ceph.conf" <<'PY'
import json, sys, rados
cluster = rados.Rados(conffile=sys.argv[1])
cluster.connect(timeout=30)
pools = ['.rgw.root', 'default.rgw.control', 'default.rgw.meta', 'default.rgw.log',
         'default.rgw.buckets.index', 'default.rgw.buckets.data', 'default.rgw.buckets.non-ec']
for pool in pools:
    for command in ({'prefix': 'osd pool create', 'pool': pool, 'pg_num': 8, 'pgp_num': 8},
                    {'prefix': 'osd pool application enable', 'pool': pool, 'app': 'rgw'}):
        code, _out, err = cluster.mon_command(json.dumps(command), b'')
        if code != 0:
            sys.exit('%s failed: %d %s' % (command['prefix'], code, err))
cluster.shutdown()
PY
}

start() {
  install_if_missing
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/photowire-ceph-rgw.XXXXXX")
  mkdir -p "$DIR/run" "$DIR/log" "$DIR/mon.a" "$DIR/osd.0" "$DIR/rgw"
  # A failed start stops what it started (by pid) and keeps the folder for its logs.
  trap 'code=$?; if [ $code -ne 0 ]; then for n in rgw osd mon; do [ -f "$DIR/$n.pid" ] && kill -KILL "$(cat "$DIR/$n.pid")" 2>/dev/null; done; say "start failed; logs kept in $DIR/log"; fi' EXIT

  MON_PORT=$(free_port)
  RGW_PORT=$(free_port)
  while [ "$RGW_PORT" = "$MON_PORT" ]; do RGW_PORT=$(free_port); done
  FSID=$(cat /proc/sys/kernel/random/uuid)
  local osd_uuid access secret osd_id ceph
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  access=${S3_ACCESS_KEY:-photowire-test-access}
  secret=${S3_SECRET_KEY:-photowire-test-secret-key}
  write_conf

  ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool "$DIR/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
  monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap" >/dev/null
  ceph-mon -c "$DIR/ceph.conf" -i a --mkfs --monmap "$DIR/monmap" --keyring "$DIR/keyring"

  ceph-mon -c "$DIR/ceph.conf" -i a -f >>"$DIR/log/mon.stdout" 2>&1 &
  echo $! >"$DIR/mon.pid"
  ceph="ceph -c $DIR/ceph.conf --connect-timeout 10"
  mon_answers() { daemons_alive mon; $ceph mon stat >/dev/null 2>&1; }
  wait_for 60 "monitor" mon_answers
  say "monitor up on 127.0.0.1:$MON_PORT"

  osd_id=$($ceph osd new "$osd_uuid")
  ceph-osd -c "$DIR/ceph.conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" >>"$DIR/log/osd.mkfs" 2>&1
  ceph-osd -c "$DIR/ceph.conf" -i "$osd_id" -f >>"$DIR/log/osd.stdout" 2>&1 &
  echo $! >"$DIR/osd.pid"
  create_rgw_pools
  say "osd.$osd_id started, rgw pools made"

  # radosgw waits by itself until the OSD's placement groups are active.
  radosgw -c "$DIR/ceph.conf" -n client.rgw.photowire -f >>"$DIR/log/rgw.stdout" 2>&1 &
  echo $! >"$DIR/rgw.pid"
  rgw_answers() { daemons_alive mon osd rgw; curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$RGW_PORT/"; }
  wait_for "${CEPH_RGW_START_TIMEOUT:-120}" "answer from radosgw on 127.0.0.1:$RGW_PORT" rgw_answers
  say "radosgw answers on 127.0.0.1:$RGW_PORT"

  radosgw-admin -c "$DIR/ceph.conf" -n client.rgw.photowire user create --uid=photowire-test --display-name='photowire tests' \
    --access-key="$access" --secret-key="$secret" >"$DIR/user.json" 2>>"$DIR/log/radosgw-admin.log"
  say "S3 user made; ready (pids: mon $(cat "$DIR/mon.pid"), osd $(cat "$DIR/osd.pid"), rgw $(cat "$DIR/rgw.pid"))"

  printf '%s\n' \
    "CEPH_RGW_DIR=$DIR" \
    "S3_ENDPOINT=http://127.0.0.1:$RGW_PORT" \
    "S3_REGION=us-east-1" \
    "S3_FORCE_PATH_STYLE=true" \
    "AWS_ACCESS_KEY_ID=$access" \
    "AWS_SECRET_ACCESS_KEY=$secret"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac
