#!/usr/bin/env node
// Prints the preview-versus-render PSNR table from the JSON lines the preview tests append to
// SEEKFRAME_PSNR_REPORT (reportPsnr in core/render-api/src/contract-suite/preview-parity.ts):
//   SEEKFRAME_PSNR_REPORT=/tmp/psnr.jsonl npx vitest run core/cli/test/preview-parity.test.ts \
//     apps/modal-function/test/preview-parity.test.ts apps/cloudflare-container/test/preview-parity.test.ts
//   SEEKFRAME_PSNR_REPORT=/tmp/psnr.jsonl npx vitest run --project outside tools/registry/test/template-vercel-sandbox.test.ts
//   node scripts/preview-psnr-table.mjs /tmp/psnr.jsonl [/tmp/psnr-before.jsonl]
// With a second file, each cell reads "before → after".
import { readFileSync } from 'node:fs';

const [afterFile, beforeFile] = process.argv.slice(2);
if (!afterFile) {
  console.error('usage: node scripts/preview-psnr-table.mjs <report.jsonl> [<before.jsonl>]');
  process.exit(2);
}

/** (preview, composition) -> time -> PSNR, the last value reported for each. */
function read(file) {
  const table = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line);
    const key = `${row.preview}\u0000${row.composition}`;
    if (!table.has(key)) table.set(key, new Map());
    table.get(key).set(row.time, row.psnr);
  }
  return table;
}

const after = read(afterFile);
const before = beforeFile ? read(beforeFile) : new Map();
const db = (value) => (value === undefined ? '–' : value === null || !Number.isFinite(value) ? '∞' : `${value.toFixed(1)}`);
console.log('| preview | composition | times (s) | PSNR at each time, dB |');
console.log('|---|---|---|---|');
for (const [key, times] of after) {
  const [preview, composition] = key.split('\u0000');
  const cells = [...times.entries()].map(([t, value]) => (beforeFile ? `${db(before.get(key)?.get(t))} → ${db(value)}` : db(value)));
  console.log(`| ${preview} | ${composition} | ${[...times.keys()].join(', ')} | ${cells.join(' · ')} |`);
}
