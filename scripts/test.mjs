#!/usr/bin/env node
/**
 * `npm test`: the type check (`tsc --noEmit`), the linter (`biome check .`) and the tests
 * (`vitest run`, with a v8 coverage summary on a full run) side by side, so the ~20 s of single-threaded type checking runs while vitest's
 * workers wait on the processes their tests start, instead of before them with a core idle.
 * vitest's output streams as usual; the checker's and the linter's are held and printed after it,
 * each under its own heading, so nothing interleaves. The exit code is non-zero when any of the
 * three fails. Arguments go to vitest (`npm test -- test/http`). A full run without Agent Canvas in
 * `.cache/` (a fresh clone) also starts its fetch beside them, silent. Hand-written because the job is
 * a few `spawn`s and a summary (after the build of `dist/` when it is stale, which the type check
 * also reads): a runner package (npm-run-all, concurrently) would interleave or
 * prefix every line of vitest's report, which `.ci/run` and people read.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'node_modules', '.bin');

/**
 * Runs a command; `held` keeps its output to print later, otherwise it goes straight through. A
 * held command also runs at a lower priority (nice 5): it takes the cores when vitest's files wait
 * on their processes rather than slowing the heaviest files down, and still gets about a quarter of
 * a busy core, enough to end well before vitest (its output is printed after vitest's anyway).
 */
function run(name, command, args, held) {
  const child = spawn(join(BIN, command), args, {
    cwd: ROOT,
    stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: held ? { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } : process.env,
  });
  if (held && child.pid !== undefined) {
    try {
      setPriority(child.pid, 5);
    } catch {
      // Not allowed here (some containers): it runs at the usual priority.
    }
  }
  const chunks = [];
  if (held) {
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
  }
  const done = new Promise((resolve) => {
    child.on('error', (error) => resolve({ name, code: 127, output: `${name}: could not start ${command}: ${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
  });
  return { child, done };
}

// First, as vitest's global setup would, rebuild `dist/` when a source is newer than it: the type
// check reads `dist/` too (bench/ imports it), so it must not run while the build replaces it.
const built = await run(
  'build (dist/ older than src/)',
  'tsx',
  ['-e', "import('./test/support/build-dist.ts').then((m) => m.default())"],
  false,
).done;
if (built.code !== 0) {
  process.stdout.write(`FAIL ${built.name}\n`);
  process.exit(1);
}

// A full run in a fresh clone fetches Agent Canvas from the npm registry (its browser tests need its
// page): started here, it downloads while vitest starts its workers, and the Canvas files wait for it
// (`ensureAgentCanvas` lets one process fetch at a time) instead of starting their own ~7 s later.
const canvasCached = (() => {
  try {
    return readdirSync(join(ROOT, '.cache')).some((name) => existsSync(join(ROOT, '.cache', name, 'package', 'build', 'index.html')));
  } catch {
    return false;
  }
})();
const prefetch =
  process.argv.length > 2 || canvasCached
    ? null
    : run('Agent Canvas fetch', 'tsx', ['-e', "import('./src/canvas/package.ts').then((m) => m.ensureAgentCanvas('.cache'))"], true);

const jobs = [
  // Incremental: the type information of the last check is kept in .cache/ (git-ignored), so a second
  // run re-checks only what changed (about 3 s of CPU instead of 20).
  run('type check (tsc --noEmit)', 'tsc', ['--noEmit', '--incremental', '--tsBuildInfoFile', '.cache/tsc-noemit.tsbuildinfo'], true),
  run('lint (biome check .)', 'biome', ['check', '.'], true),
  // A full run reports v8 coverage of src/ (one summary; about 13% more CPU in test/http, measured):
  // a run of some files only would report a misleading figure, so it does not.
  run('tests (vitest run)', 'vitest', ['run', ...(process.argv.length > 2 ? process.argv.slice(2) : ['--coverage'])], false),
];

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const { child } of prefetch ? [...jobs, prefetch] : jobs) child.kill(signal);
  });
}

const results = await Promise.all(jobs.map((j) => j.done));
// Done by now (the Canvas files waited for it); its failure is theirs to report (they skip, saying why).
if (prefetch) await prefetch.done;
for (const { name, code, output } of results.slice(0, 2)) {
  if (code !== 0) process.stdout.write(`\n── ${name}: failed (exit ${code}) ──\n${output}`);
}
process.stdout.write(`\n${results.map(({ name, code }) => `${code === 0 ? 'ok  ' : 'FAIL'} ${name}`).join('\n')}\n`);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
