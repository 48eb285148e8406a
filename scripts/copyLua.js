#!/usr/bin/env node
'use strict';
// tsc copies only what it compiles: the Redis scripts (src/adapters/redis/lua/**/*.lua) are read at
// start relative to the compiled module (src/adapters/redis/scripts.ts, LUA_DIR), so each build
// output gets a copy. Usage: node scripts/copyLua.js <the folder src/ was compiled to>
const { cpSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/copyLua.js <output folder of src/, e.g. dist or dist-bench/src>');
  process.exit(2);
}
const from = join(__dirname, '..', 'src', 'adapters', 'redis', 'lua');
const to = join(out, 'adapters', 'redis', 'lua');
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true, filter: (p) => !/\.(ts|js)$/.test(p) });
