// One test layer of tests/run.mjs: spawns its runner, keeps the output until it ends, prints it whole
// with a one-line verdict, and resolves with { passed, failed }. Split out so the reporting can be tested
// without running the suites (tests/bridge/run_layer.test.mjs).
import { spawn } from 'node:child_process';

export function doctest(out) {
  const m = /test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/.exec(out);
  return m ? { passed: Number(m[2]), failed: Number(m[3]) } : null;
}

export function tap(out) {
  const pass = /^# pass (\d+)/m.exec(out);
  const fail = /^# fail (\d+)/m.exec(out);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
}

// `write` receives every line printed (default: stdout), so a test can capture the report.
export function runLayer(layer, write = (s) => process.stdout.write(s)) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(layer.cmd, layer.args, { env: { ...process.env, NO_COLOR: '1' } });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    // A runner that fails to spawn emits 'error' and then 'close': only the first reports the layer.
    let reported = false;
    const done = (status, error) => {
      if (reported) return;
      reported = true;
      const out = Buffer.concat(chunks).toString('utf8').replace(/\x1b\[[0-9;]*m/g, '');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      write(`\n=== ${layer.name} ===\n`);
      write(out);
      const counts = layer.parse(out);
      if (!counts) {
        write(`--- ${layer.name}: no test summary found (exit ${status}, ${error ?? ''}): counted as 1 failure\n`);
        resolve({ passed: 0, failed: 1 });
        return;
      }
      // A runner that exits non-zero with nothing failed still failed (a crash after the summary).
      const crashed = status !== 0 && counts.failed === 0 ? 1 : 0;
      write(`--- ${layer.name}: ${counts.passed} passed, ${counts.failed + crashed} failed in ${seconds} s\n`);
      resolve({ passed: counts.passed, failed: counts.failed + crashed });
    };
    child.on('error', (e) => done(null, e));
    child.on('close', (status) => done(status));
  });
}
