#!/usr/bin/env -S node --max-semi-space-size=8 --max-old-space-size=1024
'use strict';
// The V8 flags above bound the worker's memory on Node 24, whose V8 otherwise sizes the young
// generation from the machine's RAM (~134 MB on a 24 GB box, against ~34 MB on Node 20) and lets
// pooled pages pile up: a 4-slot worker on a 10,000-item batch peaked at 559-606 MB RSS with about
// 45 MB live, and 233-259 MB with these flags, no slower (docs/BENCHMARKS.md, "Worker memory").
// The old-space cap leaves room for the largest feed the default PHOTOWIRE_MAX_FEED_MB lets in (a
// 60 MB NDJSON feed holds ~170 MB of heap); raise it with `node --max-old-space-size=N bin/photowire.js`.
// Every way photowire is started runs this file itself (npm scripts, the Docker image, the tests),
// so these are the flags it runs with.
// The CLI is compiled to dist/ by `npm ci` (prepare) or `npm run build`.
try {
  require('../dist/cli/main.js');
} catch (err) {
  if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    console.error('photowire is not built yet: run `npm ci` (or `npm run build`) in the project folder first.');
    process.exit(2);
  }
  throw err;
}
