#!/usr/bin/env bash
# The test matrix: the pipeline's integration tests (jest.matrix.config.js) once more
# against a three-master Redis Cluster and against a Ceph RGW bucket, through the one switch in
# test/helpers/testEnv.ts. test/globalSetup.ts starts the services from scripts/services/ (unless
# REDIS_CLUSTER_NODES / S3_ENDPOINT with the AWS keys name running ones) and stops them after.
#
#   scripts/test-matrix.sh cluster [jest args...]   PHOTOWIRE_TEST_REDIS=cluster   (npm run test:cluster)
#   scripts/test-matrix.sh s3 [jest args...]        PHOTOWIRE_TEST_STORAGE=s3      (npm run test:s3)
#   scripts/test-matrix.sh all                      both, one after the other     (npm test runs it after jest)
#
# Needs the build (dist/) for the CLI tests: `npm test` builds first.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
shift || true

run() {
  local m=$1; shift
  local t0=$SECONDS
  case "$m" in
    cluster)
      echo "test-matrix: the pipeline tests on a three-master Redis Cluster (PHOTOWIRE_TEST_REDIS=cluster)"
      PHOTOWIRE_TEST_REDIS=cluster npx jest -c jest.matrix.config.js "$@" ;;
    s3)
      # .ci/run sets PHOTOWIRE_TEST_NO_CEPH when Debian's Ceph packages could not be installed.
      if [ -n "${PHOTOWIRE_TEST_NO_CEPH:-}" ] && [ -z "${S3_ENDPOINT:-}" ] && ! command -v radosgw >/dev/null 2>&1; then
        echo "test-matrix: SKIPPED the S3 run: ${PHOTOWIRE_TEST_NO_CEPH}"
        return 0
      fi
      echo "test-matrix: the pipeline tests on a Ceph RGW bucket (PHOTOWIRE_TEST_STORAGE=s3)"
      PHOTOWIRE_TEST_STORAGE=s3 npx jest -c jest.matrix.config.js "$@" ;;
    *) echo "usage: $0 cluster|s3|all [jest args...]" >&2; exit 2 ;;
  esac
  echo "test-matrix: $m run took $(( SECONDS - t0 )) s"
}

if [ "$mode" = all ]; then
  run cluster "$@"
  run s3 "$@"
else
  run "$mode" "$@"
fi
