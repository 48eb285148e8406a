#!/usr/bin/env bash
# Run a command on Node 24 (the LTS the image uses) when the system Node is older: the npm
# registry's `node` package, installed once into .tools/node24 (about 7 s here), put first on PATH.
# Usage: bash scripts/with-node-lts.sh npx jest test/unit
set -euo pipefail
cd "$(dirname "$0")/.."
want=24
have=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$have" -lt "$want" ]; then
  tools=.tools/node$want
  if [ ! -x "$tools/node_modules/.bin/node" ]; then
    echo "with-node-lts: system Node is v$have; installing node@$want from the npm registry into $tools" >&2
    npm install --no-save --no-audit --no-fund --prefix "$tools" "node@$want" >/dev/null
  fi
  export PATH="$PWD/$tools/node_modules/.bin:$PATH"
fi
echo "with-node-lts: $(node --version)" >&2
exec "$@"
