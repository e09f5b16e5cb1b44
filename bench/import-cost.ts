/**
 * What loading fakehands costs a test file: `import('fakehands')` and `require('fakehands')`
 * against `import('msw/node')`, each in a fresh Node process (the module cache empty, as a vitest
 * worker's first test file has it), timed inside the process around the import alone (Node's own
 * start-up left out), rounds interleaved so a busy machine weighs on every contender alike; the
 * medians of wall and CPU time, and their ratios to msw's. Run after `npm run build`: `npm run bench:imports`
 * (`IMPORT_ROUNDS`, default 15).
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const ROUNDS = Number(process.env.IMPORT_ROUNDS ?? 15);
const ROOT = new URL('..', import.meta.url).pathname;

/** The contenders: how each loads, in a script of its own. */
const CONTENDERS = {
  "import('msw/node')": "await import('msw/node');",
  "import('fakehands')": "await import('fakehands');",
  "require('fakehands')": "require('fakehands');",
  "import('fakehands/node')": "await import('fakehands/node');",
} as const;
/** Wraps a contender: wall time and CPU time (user + system, which a busy machine's other processes do not inflate as much) around the load alone. */
const timed = (load: string, cjs: boolean) => {
  const body = `const t = performance.now(); const c = process.cpuUsage(); ${load} const u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  return cjs ? body : body;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Measures every contender `ROUNDS` times, interleaved; resolves with medians in ms and ratios to msw/node. */
export async function importCost(): Promise<{
  rounds: number;
  medianMs: Record<string, number>;
  ratio: Record<string, number>;
  cpuMs: Record<string, number>;
  cpuRatio: Record<string, number>;
}> {
  // The scripts live in the package (so `fakehands` resolves to this build through its own exports, as in a consumer's project).
  const dir = `${ROOT}.tmp/import-cost/`;
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const [i, [name, code]] of Object.entries(CONTENDERS).entries()) {
    const cjs = name.startsWith('require');
    files[name] = `${dir}contender-${i}.${cjs ? 'cjs' : 'mjs'}`;
    await writeFile(files[name]!, timed(code, cjs));
  }
  const wall: Record<string, number[]> = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(CONTENDERS).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(CONTENDERS)) {
      const { stdout } = await promisify(execFile)(process.execPath, [files[name]!], { cwd: ROOT });
      const measured = JSON.parse(stdout.trim()) as { wall: number; cpu: number };
      wall[name]!.push(measured.wall);
      cpu[name]!.push(measured.cpu);
    }
  }
  const medians = (times: Record<string, number[]>) =>
    Object.fromEntries(Object.entries(times).map(([name, list]) => [name, Math.round(median(list))]));
  const ratios = (ms: Record<string, number>) =>
    Object.fromEntries(Object.entries(ms).map(([name, value]) => [name, Math.round((value / ms["import('msw/node')"]!) * 100) / 100]));
  const medianMs = medians(wall);
  const cpuMs = medians(cpu);
  return { rounds: ROUNDS, medianMs, ratio: ratios(medianMs), cpuMs, cpuRatio: ratios(cpuMs) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await importCost();
  console.log(`import cost, median of ${result.rounds} fresh processes each (ratio to import('msw/node'), target ≤ 2×):`);
  console.log(`  ${''.padEnd(26)}  wall time        CPU time`);
  for (const [name, ms] of Object.entries(result.medianMs)) {
    console.log(
      `  ${name.padEnd(26)} ${String(ms).padStart(5)} ms ${result.ratio[name]!.toFixed(2)}×  ${String(result.cpuMs[name]).padStart(5)} ms ${result.cpuRatio[name]!.toFixed(2)}×`,
    );
  }
  await mkdir(`${ROOT}bench/results`, { recursive: true });
  await writeFile(`${ROOT}bench/results/import-cost.json`, `${JSON.stringify(result, null, 2)}\n`);
}
