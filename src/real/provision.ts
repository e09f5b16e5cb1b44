/**
 * The real OpenHands servers, provisioned: each in a virtual environment of its own in a cache
 * folder, installed once from a pinned requirements file of this package (`real/requirements/`,
 * the whole `pip freeze` of a working install), with a Python ≥ 3.12 found on the machine. The
 * folder's name carries a hash of the requirements, so a new pin makes a new environment and an old
 * one is never half-reused. Hand-written: the job is finding an interpreter and running `venv` and
 * `pip` (no npm package manages Python environments).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-root.js';

/** The real servers fakehands knows how to run. */
export type RealServerName = 'agent-server' | 'app-server';

/** The package each environment is installed for, and the version pinned (what the `real:` line names). */
export const REAL_PACKAGES: Record<RealServerName, { pkg: string; version: string }> = {
  'agent-server': { pkg: 'openhands-agent-server', version: pinnedVersion('agent-server', 'openhands-agent-server') },
  'app-server': { pkg: 'openhands-ai', version: pinnedVersion('app-server', 'openhands-ai') },
};

/** The oldest Python the real servers run on (`requires-python` of each package). */
export const MIN_PYTHON: readonly [number, number] = [3, 12];

/** The requirements file of a server. */
export function requirementsFile(name: RealServerName): string {
  return fileURLToPath(packageFile(`real/requirements/${name}.requirements.txt`));
}

/** The version a requirements file pins for `pkg`. */
function pinnedVersion(name: RealServerName, pkg: string): string {
  try {
    const text = readFileSync(requirementsFile(name), 'utf8');
    return new RegExp(`^${pkg}==(\\S+)$`, 'm').exec(text)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Where the environments are kept: `$FAKEHANDS_REAL_CACHE`, else `$XDG_CACHE_HOME/fakehands/real`, else `~/.cache/fakehands/real`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FAKEHANDS_REAL_CACHE) return env.FAKEHANDS_REAL_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'fakehands', 'real');
}

/** The folder of a server's environment: its name and the first 12 hex of its requirements' hash. */
export function venvDir(name: RealServerName, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256')
    .update(readFileSync(requirementsFile(name)))
    .digest('hex')
    .slice(0, 12);
  return join(cacheRoot(env), `${name}-${hash}`);
}

/** The `bin` folder of a server's environment. */
export const venvBin = (name: RealServerName, env: NodeJS.ProcessEnv = process.env) => join(venvDir(name, env), 'bin');

/** Runs a command; resolves with its exit code and the tail of its output. */
function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ code: 127, output: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The Python interpreters to try: `$FAKEHANDS_PYTHON`, then python3.12 (what the pins were made with), 3.13, 3.14 on PATH, then pyenv's and the usual prefixes. */
function candidates(env: NodeJS.ProcessEnv): string[] {
  const list = env.FAKEHANDS_PYTHON ? [env.FAKEHANDS_PYTHON] : [];
  list.push('python3.12', 'python3.13', 'python3.14', 'python3');
  const pyenv = join(env.PYENV_ROOT || join(homedir(), '.pyenv'), 'versions');
  if (existsSync(pyenv)) {
    for (const version of readdirSync(pyenv).sort()) list.push(join(pyenv, version, 'bin', 'python3'));
  }
  for (const prefix of ['/usr/local/bin', '/usr/bin']) list.push(join(prefix, 'python3.12'), join(prefix, 'python3.13'));
  return list;
}

/** A Python ≥ 3.12 on this machine (its path and version), or `null`. */
export async function findPython(env: NodeJS.ProcessEnv = process.env): Promise<{ path: string; version: string } | null> {
  for (const path of candidates(env)) {
    const probe = await run(path, ['-c', 'import sys, venv; print("%d.%d.%d" % sys.version_info[:3])'], { env });
    if (probe.code !== 0) continue;
    const version = probe.output.trim().split('\n').at(-1)!;
    const [major, minor] = version.split('.').map(Number) as [number, number];
    if (major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1])) return { path, version };
  }
  return null;
}

/** Why a server cannot be installed here, in one line. */
export class ProvisionError extends Error {
  /** A provisioning failure: `message` says what is missing. */
  constructor(message: string) {
    super(message);
    this.name = 'ProvisionError';
  }
}

/** Whether a server's environment is installed and complete. */
export const isInstalled = (name: RealServerName, env: NodeJS.ProcessEnv = process.env) =>
  existsSync(join(venvDir(name, env), '.fakehands-complete'));

/**
 * Installs a server's environment when it is not complete yet: a new venv in its folder, `pip
 * install -r` the pinned requirements, then a marker file, written last, so a cut-off install is
 * never taken for a complete one (it is made again). Throws a `ProvisionError` naming what is missing.
 */
export async function install(
  name: RealServerName,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const dir = venvDir(name, env);
  if (isInstalled(name, env)) return dir;
  const python = await findPython(env);
  if (python === null) {
    throw new ProvisionError(
      `no Python >= ${MIN_PYTHON.join('.')} with venv found (tried python3.12, python3.13, python3.14, python3, ~/.pyenv/versions/*; set FAKEHANDS_PYTHON to one)`,
    );
  }
  options.log?.(
    `installing the real ${name} (${REAL_PACKAGES[name].pkg}==${REAL_PACKAGES[name].version}) with Python ${python.version} into ${dir}`,
  );
  await mkdir(cacheRoot(env), { recursive: true });
  await rm(dir, { recursive: true, force: true });
  const venv = await run(python.path, ['-m', 'venv', dir], { env });
  if (venv.code !== 0) throw new ProvisionError(`python -m venv failed: ${venv.output.trim().split('\n').at(-1)}`);
  const pip = await run(
    join(dir, 'bin', 'python'),
    ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', '-r', requirementsFile(name)],
    {
      env: { ...env, PIP_NO_INPUT: '1' },
    },
  );
  if (pip.code !== 0) {
    const last = pip.output.trim().split('\n').filter(Boolean).at(-1) ?? 'no output';
    throw new ProvisionError(`pip could not install the real ${name} from PyPI: ${last}`);
  }
  await writeFile(join(dir, '.fakehands-complete'), `${new Date().toISOString()}\n`);
  return dir;
}
