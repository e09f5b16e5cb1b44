#!/usr/bin/env node
/**
 * `npm run test:real`: the differential suite against the real OpenHands servers. Installs them
 * first (`fakehands real install`; minutes the first time, cached after); on a machine without
 * Python >= 3.12 or PyPI it says so in one line and ends with success, so the rest of CI stands.
 * Then runs test/real/ with vitest and ends with one plain line summing the facts each file wrote
 * to .tmp/real-facts/: `real: N/M facts agree (agent server X.Y.Z, app server X.Y.Z), K declared
 * differences`. Hand-written: a few spawns and a sum.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FACTS = join(ROOT, '.tmp', 'real-facts');
/** `fakehands real install`'s exit code when the machine cannot run the real servers. */
const EXIT_UNAVAILABLE = 3;

if (!existsSync(join(ROOT, 'dist', 'cli.bundle.js'))) spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const installed = spawnSync(process.execPath, [join(ROOT, 'bin', 'fakehands.js'), 'real', 'install'], {
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
if (installed.status === EXIT_UNAVAILABLE) {
  process.stdout.write(`real: skipped, ${installed.stderr.trim().replace(/^fakehands real: /, '')}\n`);
  process.exit(0);
}
if (installed.status !== 0) {
  process.stdout.write(installed.stderr);
  process.stdout.write('real: 0/0 facts agree (the real servers could not be installed), 0 declared differences\n');
  process.exit(1);
}

rmSync(FACTS, { recursive: true, force: true });
const vitest = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '-c', 'vitest.real.config.ts', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, FAKEHANDS_VITEST_JSON: process.env.FAKEHANDS_REAL_VITEST_JSON ?? '' },
});

const versions = {};
let agree = 0;
let total = 0;
let undeclared = 0;
const declared = new Map();
for (const file of existsSync(FACTS) ? readdirSync(FACTS) : []) {
  const { versions: v, facts } = JSON.parse(readFileSync(join(FACTS, file), 'utf8'));
  Object.assign(versions, v);
  for (const fact of facts) {
    total += 1;
    if (fact.agree) agree += 1;
    else if (fact.declared) declared.set(fact.declared, (declared.get(fact.declared) ?? 0) + 1);
    else undeclared += 1;
  }
}
const named = ['agent server', 'app server'].map((name) => `${name} ${versions[name] ?? 'not run'}`).join(', ');
const covered = [...declared.values()].reduce((a, b) => a + b, 0);
process.stdout.write(`\n${undeclared} undeclared differences; ${covered} facts covered by declared differences\n`);
process.stdout.write(`real: ${agree}/${total} facts agree (${named}), ${declared.size} declared differences\n`);
process.exit(vitest.status === 0 ? 0 : 1);
