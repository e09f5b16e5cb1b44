/**
 * vitest global setup: the CLI and Pact tests run the built command (`bin/fakehands.js` →
 * `dist/`), so `dist/` is rebuilt here whenever a source file is newer than it. Running one test
 * file with `npx vitest run FILE` therefore never tests stale code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
/** What the build writes last; its time stamps the build. */
const BUILT = join(ROOT, 'dist/cli.bundle.js');

/** The newest modification time of any file under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds `dist/` when it is missing or older than `src/`, `fixtures/` or `package.json`. */
export default function setup(): void {
  const sources = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'fixtures')), statSync(join(ROOT, 'package.json')).mtimeMs);
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= sources) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}
