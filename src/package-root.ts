/**
 * Files that ship with fakehands (fixtures, contracts, package.json), found from the package
 * root, so they resolve the same from src/ (tsx), dist/ (tsc) and the CLI bundle.
 */
import { existsSync, readFileSync } from 'node:fs';

/** Name in the package.json that marks the package root. */
const PACKAGE_NAME = 'fakehands';

function findRoot(): URL {
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    const manifest = new URL('package.json', dir);
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (dir.pathname === '/')
      throw new Error(`Failed to find the fakehands package root above ${import.meta.url}: no package.json named "${PACKAGE_NAME}".`);
  }
}

let root: URL | undefined;

/** The URL of a file shipped with fakehands, e.g. `packageFile('fixtures/default.json')`. */
export function packageFile(relative: string): URL {
  root ??= findRoot();
  return new URL(relative, root);
}

let version: string | undefined;

/** The version of fakehands, from its package.json. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  return version;
}
