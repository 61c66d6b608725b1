// kafkajs' own partitioners (npm kafkajs 2.2.4, installed in tests/clients/node_modules by
// scripts/install-deps.sh test): the keys of a hex key file (one per line, an empty line is
// the empty key, which kafkajs hashes) through DefaultPartitioner and LegacyPartitioner,
// printed as CSV in the column order of
//   partsim hash --key-encoding hex --clients kafkajs,kafkajs-legacy -p 3,6,12,64
// Usage: node kafkajs_oracle.js KEYS.hex
const fs = require('fs');
const path = require('path');
const { Partitioners } = require(path.join(__dirname, 'node_modules', 'kafkajs'));

const counts = [3, 6, 12, 64];
const partitioners = [Partitioners.DefaultPartitioner(), Partitioners.LegacyPartitioner()];
const metadata = counts.map(n => Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0 })));
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const out = ['key' + counts.map(n => `,kafkajs.p${n},kafkajs-legacy.p${n}`).join('')];
for (const hex of lines) {
  const key = Buffer.from(hex, 'hex');
  let row = hex;
  counts.forEach((n, c) => {
    for (const p of partitioners) row += ',' + p({ topic: 't', partitionMetadata: metadata[c], message: { key } });
  });
  out.push(row);
}
process.stdout.write(out.join('\n') + '\n');
