#!/usr/bin/env node
// Writes the reference docs generated from the code (run after the build: `npm run docs`).
// test/unit/core/errors.test.ts and test/unit/config.test.ts fail when a generated file and the code disagree.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const generated = [
  ['docs/ERRORS.md', () => require(path.join(root, 'dist/core/errorsDoc.js')).errorsMarkdown()],
  ['docs/CONFIGURATION.md', () => require(path.join(root, 'dist/core/configDoc.js')).configurationMarkdown()],
];
for (const [file, make] of generated) {
  const text = make();
  const target = path.join(root, file);
  const before = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  fs.writeFileSync(target, text);
  console.log(`${file}: ${before === text ? 'unchanged' : 'written'}`);
}
