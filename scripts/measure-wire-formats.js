#!/usr/bin/env node
// Usage: npm run build && node scripts/measure-wire-formats.js
// Parse cost of the new formats through parseFeedBytes (the built code), fastest of 5 runs each.
const { readFileSync } = require('node:fs');
const { parseFeedBytes } = require(require('node:path').join(__dirname, '../dist/adapters/feeds/loadFeed'));
const W = require('node:path').join(__dirname, '../test/fixtures/wire-formats/');
const efe = readFileSync(W + 'efe-newsml12-photo.xml');
const efe16 = Buffer.concat([
  Buffer.from([0xff, 0xfe]),
  Buffer.from(efe.toString('utf8').replace('encoding="utf-8"', 'encoding="UTF-16"'), 'utf16le'),
]);
const efe15 = Buffer.from(efe.toString('utf8').replace('encoding="utf-8"', 'encoding="ISO-8859-15"'), 'latin1');
const msg = Buffer.concat([
  readFileSync(W + 'dpa-iptc7901-two-line.txt'),
  readFileSync(W + 'dpa-iptc7901-four-line.txt'),
]);
const spool = (n) => Buffer.concat(Array.from({ length: n / 2 }, () => msg));
const best = (label, bytes, name) => {
  let min = Infinity,
    items = 0;
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    const r = parseFeedBytes(bytes, name);
    min = Math.min(min, Number(process.hrtime.bigint() - t) / 1e6);
    items = r.items.length;
  }
  console.log(`${label}: ${(bytes.length / 1024).toFixed(0)} KB, ${items} items, ${min.toFixed(1)} ms`);
};
best('EFE NewsML 1.2 UTF-8', efe, '/tmp/x/efe.xml');
best('EFE NewsML 1.2 UTF-16LE', efe16, '/tmp/x/efe.xml');
best('EFE NewsML 1.2 ISO-8859-15', efe15, '/tmp/x/efe.xml');
best('dpa IPTC 7901 spool, 1,000 messages', spool(1000), '/tmp/x/s.txt');
best('dpa IPTC 7901 spool, 10,000 messages (the cap)', spool(10000), '/tmp/x/s.txt');
best('dpa IPTC 7901 spool, 20,000 messages (over the cap)', spool(20000), '/tmp/x/s.txt');
