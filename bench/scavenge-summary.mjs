// Sums up the scavenges of a `node --trace-gc-nvp` log (standard input): their count, mean pause, and what
// each found allocated and promoted (survived into the old generation), over the log's second half, after
// warm-up. Usage: node --trace-gc-nvp <script> … | node bench/scavenge-summary.mjs
import { text } from 'node:stream/consumers';

const scavenges = (await text(process.stdin))
  .split('\n')
  .filter((line) => line.includes(' gc=s '))
  .map((line) => Object.fromEntries([...line.matchAll(/(\w+)=([0-9.]+)/g)].map(([, name, value]) => [name, Number(value)])));
const kept = scavenges.slice(Math.floor(scavenges.length / 2));
if (kept.length === 0) throw new Error('no scavenge in the log: run the script with node --trace-gc-nvp');
const mean = (name) => kept.reduce((sum, s) => sum + (s[name] ?? 0), 0) / kept.length;
const kib = (bytes) => (bytes / 1024).toFixed(0);
console.log(
  `${kept.length} scavenges (the log's second half): pause ${mean('pause').toFixed(2)} ms, allocated ${kib(mean('allocated'))} KiB, ` +
    `promoted ${kib(mean('promoted'))} KiB (${((100 * mean('promoted')) / mean('allocated')).toFixed(1)} %)`,
);
