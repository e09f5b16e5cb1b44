/**
 * npm 11 lists, after `npm ci`, every dependency whose install scripts `allowScripts` in
 * package.json does not cover ("install scripts not yet covered by allowScripts"), and a later npm
 * blocks them. Every package the lockfile marks `hasInstallScript` has its entry, so `npm ci` on a
 * fresh clone prints no such list; `prepare` (the build) is the project's own script, not covered.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  allowScripts?: Record<string, boolean>;
  scripts: Record<string, string>;
};
const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};

/** The package name of a lockfile key (`node_modules/a/node_modules/@b/c` is `@b/c`). */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('package.json allowScripts', () => {
  it('covers every locked dependency with install scripts, by name or name@version', () => {
    const allowed = manifest.allowScripts ?? {};
    const uncovered = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.hasInstallScript)
      .map(([key, entry]) => `${nameOf(key)}@${entry.version}`)
      .filter((id) => !(id in allowed) && !(id.slice(0, id.lastIndexOf('@')) in allowed));
    expect(uncovered).toEqual([]);
  });

  it('runs the scripts the build needs (esbuild, msw) and none that only report home (@scarf/scarf)', () => {
    expect(manifest.allowScripts).toMatchObject({ esbuild: true, msw: true, '@scarf/scarf': false });
    expect(manifest.scripts.prepare).toBe('npm run build');
  });
});
