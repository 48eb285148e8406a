#!/usr/bin/env node
'use strict';
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
