/**
 * The direction of dependencies in `src`, checked by dependency-cruiser with the rules in
 * `.dependency-cruiser.cjs`: DESIGN's layers (schemas ← domain ← instance ← http ← surfaces ← mounts
 * ← transports), no surface importing another, the domain's areas in one order, and no import
 * circle (type-only and dynamic imports included). The domain's back edges that remain until its
 * folders are split are listed, each one, in `.dependency-cruiser-known-violations.json`: a new
 * one fails, and so does a listed one that is gone (the list only shrinks).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const KNOWN = join(ROOT, '.dependency-cruiser-known-violations.json');

/** One broken rule as dependency-cruiser reports it. */
interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The rule violations of `src` under `root` (every one, the known ones included), each as `rule: from → to`. */
async function violationsOf(root: string): Promise<{ modules: number; violations: string[] }> {
  const { stdout } = await promisify(execFile)(DEPCRUISE, ['src', '--config', CONFIG, '--no-ignore-known', '--output-type', 'json'], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const { summary } = JSON.parse(stdout) as { summary: { totalCruised: number; violations: Violation[] } };
  return { modules: summary.totalCruised, violations: summary.violations.map(line).sort() };
}

const line = (v: Violation): string => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('the import graph of src', () => {
  it('breaks no rule but the domain back edges listed as known', { timeout: 120_000 }, async () => {
    const { modules, violations } = await violationsOf(ROOT);
    const known = (JSON.parse(await readFile(KNOWN, 'utf8')) as Violation[]).map(line).sort();
    // The whole of src was read (its `.js` specifiers resolved to the `.ts` files).
    expect(modules).toBeGreaterThan(300);
    expect(violations).toEqual(known);
    // No layer, surface or circle among them: only the domain's areas wait for their split.
    expect(known.filter((v) => !v.startsWith('domain-'))).toEqual([]);
  });

  it('an upward import, a surface importing another, a domain back edge and a type-only circle are each found (the check can fail)', {
    timeout: 60_000,
  }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'fakehands-rules-'));
    const files: Record<string, string> = {
      'src/http/pipeline.ts': "import type { S } from '../surfaces/surface.js';\nexport type P = S;\n",
      'src/surfaces/surface.ts': 'export type S = string;\n',
      'src/surfaces/agent-server/routes.ts': "import { q } from '../app-server/query.js';\nexport const r = q;\n",
      'src/surfaces/app-server/query.ts': 'export const q = 1;\n',
      'src/domain/store/state.ts': "import { status } from '../agent/status.js';\nexport const s = status;\n",
      'src/domain/agent/status.ts': 'export const status = 1;\n',
      'src/schemas/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'src/schemas/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
      'tsconfig.json': '{"compilerOptions": {"module": "nodenext", "moduleResolution": "nodenext"}}',
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), text);
      }
      expect((await violationsOf(root)).violations).toEqual([
        'domain-store: src/domain/store/state.ts → src/domain/agent/status.ts',
        'layer-http: src/http/pipeline.ts → src/surfaces/surface.ts',
        'no-circular: src/schemas/a.ts → src/schemas/b.ts',
        'surface-agent-server: src/surfaces/agent-server/routes.ts → src/surfaces/app-server/query.ts',
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
