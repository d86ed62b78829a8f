// Where a sampled heap profile's bytes were allocated (node --heap-prof, or the .heapprofile that
// LONGTASKS_HEAP_SAMPLE writes): bytes per allocating function, and per nearest src/ frame above it.
//   node bench/heap-sites.mjs FILE.heapprofile [--top 25]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => a.endsWith('.heapprofile'));
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args[topAt + 1]) : 25;
if (!file) { console.error('usage: node bench/heap-sites.mjs FILE.heapprofile [--top 25]'); process.exit(1); }
const { head } = JSON.parse(readFileSync(file, 'utf8'));
const where = (f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^file:\/\//, '').replace(/.*\/(src|test|bench|node_modules|vault-mcp-server)\//, '$1/')}:${f.lineNumber + 1}`;
const own = new Map();
const bySrc = new Map();
let total = 0;
const walk = (n, src) => {
  const here = /\/(src|test)\/|\/plugins\/vault-mcp-server\//.test(n.callFrame.url) ? where(n.callFrame) : src;
  if (n.selfSize) {
    total += n.selfSize;
    const k = where(n.callFrame);
    own.set(k, (own.get(k) ?? 0) + n.selfSize);
    const s = here ?? '(no src/ or test/ frame)';
    bySrc.set(s, (bySrc.get(s) ?? 0) + n.selfSize);
  }
  for (const c of n.children ?? []) walk(c, here);
};
walk(head, null);
const mb = (b) => (b / 2 ** 20).toFixed(1).padStart(8);
console.log(`${mb(total)} MB sampled in all`);
console.log('\nby allocating function:');
for (const [k, b] of [...own].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${mb(b)} MB  ${k}`);
console.log('\nby nearest src/ or test/ frame:');
for (const [k, b] of [...bySrc].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${mb(b)} MB  ${k}`);
