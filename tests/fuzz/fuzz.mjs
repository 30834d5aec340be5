// The libFuzzer harnesses (build-asan/fuzz_*, built by scripts/setup.sh test), two ways:
//   node tests/fuzz/fuzz.mjs --replay        every committed input once (npm test's layer; seconds)
//   node tests/fuzz/fuzz.mjs --minutes N     fuzz each harness for N minutes, both at once (npm run fuzz)
// The JS file readers' mutation fuzzer (readers.mjs) runs alongside unless --harness is given.
// Options: --harness capi|tetra (one only). Fuzzing starts from the committed corpus
// (tests/fuzz/corpus/<harness>/) and keeps what it learns in build-asan/fuzz-corpus/<harness>/; a
// failing input is written to tests/fuzz/found/<harness>/ (commit it into reproducers/ once fixed).
// The replay prints TAP-style counts for tests/run.mjs, one test per harness ("# pass 2", "# fail 0").
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const here = join(root, 'tests/fuzz');
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const harnesses = option('--harness') ? [option('--harness')] : ['capi', 'tetra'];
const binary = (h) => join(root, 'build-asan', `fuzz_${h}`);
const files = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.')).map((f) => join(dir, f)) : []);

for (const h of harnesses)
  if (!existsSync(binary(h))) {
    console.error(`missing ${binary(h)}: run "bash scripts/setup.sh test" first (needs clang and libclang-rt-14-dev)`);
    process.exit(1);
  }

if (args.includes('--replay')) {
  // Each input once, seed corpus and reproducers alike; -runs=0-style replay is what passing file
  // names does: libFuzzer executes them and exits, non-zero at the first failure.
  let pass = 0;
  let fail = 0;
  for (const h of harnesses) {
    const inputs = [...files(join(here, 'corpus', h)), ...files(join(here, 'reproducers', h))];
    const started = Date.now();
    const r = spawnSync(binary(h), ['-rss_limit_mb=4096', ...inputs], { encoding: 'utf8', maxBuffer: 256 << 20 });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (r.status === 0) {
      pass += 1; // one test per harness: its whole corpus
      console.log(`ok - fuzz_${h}: ${inputs.length} inputs replayed in ${seconds} s`);
    } else {
      fail += 1;
      const failing = /Running: (\S+)\n(?![\s\S]*Running: )/.exec(r.stderr ?? '')?.[1];
      console.log(`not ok - fuzz_${h}: ${failing ?? 'an input'} failed (exit ${r.status})`);
      console.log((r.stderr ?? '').split('\n').filter((l) => !l.startsWith('Running:') && !l.startsWith('Executed')).join('\n'));
    }
  }
  if (!option('--harness')) {
    // The JS file readers (readers.mjs): 2,000 deterministic mutations of the sample files.
    const started = Date.now();
    const r = spawnSync(process.execPath, [join(here, 'readers.mjs'), '--iterations', '2000', '--seed', '1'], { encoding: 'utf8' });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (r.status === 0) pass += 1;
    else fail += 1;
    console.log(`${r.status === 0 ? 'ok' : 'not ok'} - readers.mjs: ${(r.stdout ?? '').split('\n')[0]} in ${seconds} s`);
    if (r.status !== 0) console.log(r.stderr);
  }
  console.log(`# pass ${pass}\n# fail ${fail}`);
  process.exitCode = fail ? 1 : 0;
} else {
  const minutes = Number(option('--minutes') ?? 10);
  if (!(minutes > 0)) {
    console.error('usage: node tests/fuzz/fuzz.mjs --minutes N [--harness capi|tetra] | --replay');
    process.exit(2);
  }
  const readers = option('--harness') ? null : new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, 'readers.mjs'), '--minutes', String(minutes)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out }));
  });
  const runs = harnesses.map((h) => {
    const work = join(root, 'build-asan', 'fuzz-corpus', h);
    const found = join(here, 'found', h);
    mkdirSync(work, { recursive: true });
    mkdirSync(found, { recursive: true });
    cpSync(join(here, 'corpus', h), work, { recursive: true });
    // -max_len: programs of up to ~48 calls; -timeout: a single input slower than 20 s is a finding.
    const child = spawn(binary(h), [work, `-max_total_time=${Math.round(60 * minutes)}`, '-max_len=1024', '-timeout=20',
      '-rss_limit_mb=4096', `-artifact_prefix=${found}/`, '-print_final_stats=1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (d) => (log = (log + d).slice(-200000)));
    return new Promise((resolve) => child.on('close', (status) => resolve({ h, status, log, found })));
  });
  for (const { h, status, log, found } of await Promise.all(runs)) {
    const stat = (name) => new RegExp(`stat::${name}:\\s*(\\d+)`).exec(log)?.[1];
    const crashes = files(found);
    console.log(`fuzz_${h}: ${stat('number_of_executed_units') ?? '?'} executions, ${stat('average_exec_per_sec') ?? '?'}/s, ` +
      `${stat('new_units_added') ?? '?'} new inputs, exit ${status}; ${crashes.length} finding(s) in ${found}`);
    if (status !== 0) console.log(log.split('\n').slice(-60).join('\n'));
  }
  if (readers) {
    const { status, out } = await readers;
    console.log(`readers.mjs: ${out.trim().split('\n').filter((l) => !l.startsWith('#')).join('\n')} (exit ${status})`);
  }
}
