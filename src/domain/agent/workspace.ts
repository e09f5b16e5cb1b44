/**
 * A conversation's workspace, derived, never stored: the repository as checked out (files that
 * match its name and language), then one change per finished agent turn (a plan, a fix, a test,
 * notes, a removed file). The same conversation id (so the same seed) always gives the same
 * workspace; changes, diffs and file contents agree because they are computed from one model.
 */
import { hashOf } from '../store/ids.js';
import { fromBase64 } from './base64.js';
import type { GitChange } from '../../schemas/conversation-ops.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';

/** The default `file_path` of the real file route, rooted at the web client's working-dir convention. */
export const DEFAULT_FILE_PATH = '/workspace/project/PLAN.md';

/** A workspace: where the project is, its files at checkout and now, and what changed. */
export interface Workspace {
  /** Absolute project directory (`get_project_dir`: the working dir, plus the repository's name). */
  projectDir: string;
  /** Files at checkout, by path relative to the project directory. */
  original: Record<string, string>;
  /** Files now, after the agent's finished turns (deleted files absent). */
  current: Record<string, string>;
  /** Changed files, as the agent server's git service lists them. */
  changes: GitChange[];
}

/** Repositories whose checkout is Python; everything else is a TypeScript package. */
const PYTHON_HINTS = ['python', 'django', 'cpython', 'flask', 'pandas', 'openhands/openhands'];
const WORDS = ['retry', 'parse', 'cache', 'format', 'config', 'session', 'paginate', 'validate'];

/** The project directory of a repository in a working directory (`get_project_dir`). */
export function projectDirOf(workingDir: string, repository: string | null): string {
  return repository ? `${workingDir.replace(/\/+$/, '')}/${repository.split('/').at(-1)}` : workingDir;
}

function checkout(
  repository: string | null,
  seed: number,
): { files: Record<string, string>; main: string; test: string; obsolete: string; python: boolean } {
  const name = repository?.split('/').at(-1) ?? 'project';
  const word = WORDS[seed % WORDS.length]!;
  const python = PYTHON_HINTS.some((hint) => (repository ?? '').toLowerCase().includes(hint));
  const hooks = JSON.stringify(
    {
      pre_tool_use: [{ matcher: 'terminal', hooks: [{ type: 'command', command: './scripts/check-command.sh', timeout: 10 }] }],
      session_start: [{ matcher: '*', hooks: [{ type: 'command', command: 'make setup', timeout: 120, async: true }] }],
    },
    null,
    2,
  );
  const common = {
    'README.md': `# ${name}\n\n${repository ? `Checked out from ${repository}.` : 'A scratch workspace.'}\n\n## Development\n\nRun the tests before opening a pull request.\n`,
    '.openhands/microagents/repo.md': `# ${name}\n\nThis repository keeps its sources in src/ and its tests next to them. Always run the tests.\n`,
    '.agents/skills/testing/SKILL.md': `---\nname: testing\ntriggers: [test, ${python ? 'pytest' : 'vitest'}]\n---\nRun ${python ? 'pytest -q' : 'npm test'} and read the first failure first.\n`,
    '.openhands/hooks.json': `${hooks}\n`,
  };
  if (python) {
    const pkg = name.replace(/[^a-zA-Z0-9]/g, '_').toLowerCase();
    return {
      python,
      main: `src/${pkg}/${word}.py`,
      test: `tests/test_${word}.py`,
      obsolete: `src/${pkg}/compat.py`,
      files: {
        ...common,
        'pyproject.toml': `[project]\nname = "${pkg}"\nversion = "0.${seed % 9}.0"\nrequires-python = ">=3.11"\n`,
        [`src/${pkg}/__init__.py`]: `"""${name}."""\n`,
        [`src/${pkg}/${word}.py`]: `def ${word}(value):\n    """${word.charAt(0).toUpperCase()}${word.slice(1)} a value."""\n    return value\n`,
        [`src/${pkg}/compat.py`]: `# Kept for Python 3.8, which is no longer supported.\nfrom typing import List\n`,
      },
    };
  }
  return {
    python,
    main: `src/${word}.ts`,
    test: `src/${word}.test.ts`,
    obsolete: 'src/legacy.ts',
    files: {
      ...common,
      'package.json': `${JSON.stringify({ name, version: `0.${seed % 9}.0`, type: 'module', scripts: { test: 'vitest run' } }, null, 2)}\n`,
      'src/index.ts': `export { ${word} } from '../${word}.js';\n`,
      [`src/${word}.ts`]: `/** ${word.charAt(0).toUpperCase()}${word.slice(1)} a value. */\nexport function ${word}(value: string): string {\n  return value;\n}\n`,
      'src/legacy.ts': `// Kept for the old API; nothing imports it any more.\nexport const LEGACY = true;\n`,
    },
  };
}

/** The text of a base64 upload (bytes that are not UTF-8 read with replacement characters, as a diff shows them). */
export const uploadText = (base64: string): string => new TextDecoder().decode(fromBase64(base64));

/** Sets `files[path]` to the text `read` gives, read when it is first asked for (an ordinary property after that, or once set). */
function lazyText(files: Record<string, string>, path: string, read: () => string): void {
  const settle = (text: string) =>
    Object.defineProperty(files, path, { value: text, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(files, path, {
    enumerable: true,
    configurable: true,
    get: () => {
      const text = read();
      settle(text);
      return text;
    },
    set: settle,
  });
}

/**
 * The workspace of a conversation after `finishedTurns` agent turns, in a sandbox whose spec
 * has `workingDir`; files uploaded into the project (`uploads`, by absolute path) are untracked
 * additions or changes, as git sees them.
 * @example
 * const { changes, current } = workspaceOf(record, 2, '/home/openhands/workspace')
 */
export function workspaceOf(
  conversation: ConversationRecord,
  finishedTurns: number,
  workingDir: string = DEFAULT_WORKING_DIR,
  uploads: Readonly<Record<string, string>> = {},
): Workspace {
  const seed = hashOf(conversation.id);
  const base = checkout(conversation.selected_repository, seed);
  const original = base.files;
  const current: Record<string, string> = { ...original };
  const task = conversation.messages[0] ?? 'Look around the repository.';
  const word = WORDS[seed % WORDS.length]!;
  const steps: ((turn: number) => void)[] = [
    () => {
      current['PLAN.md'] =
        `# Plan\n\nTask: ${task}\n\n1. Read ${base.main}.\n2. Fix the behaviour and cover it with a test.\n3. Update the README.\n`;
    },
    () => {
      current[base.main] = base.python
        ? `def ${word}(value):\n    """${word.charAt(0).toUpperCase()}${word.slice(1)} a value."""\n    if value is None:\n        raise ValueError("${word}: value is required")\n    return value\n`
        : `/** ${word.charAt(0).toUpperCase()}${word.slice(1)} a value. */\nexport function ${word}(value: string): string {\n  if (value === '') throw new Error('${word}: value is required');\n  return value.trim();\n}\n`;
    },
    () => {
      current[base.test] = base.python
        ? `import pytest\n\nfrom ${base.main.split('/')[1]}.${word} import ${word}\n\n\ndef test_${word}_rejects_none():\n    with pytest.raises(ValueError):\n        ${word}(None)\n`
        : `import { expect, it } from 'vitest';\nimport { ${word} } from '../${word}.js';\n\nit('rejects an empty value', () => {\n  expect(() => ${word}('')).toThrow('${word}: value is required');\n});\n`;
    },
    () => {
      current['README.md'] = `${original['README.md']}\n## ${word}\n\n\`${word}\` now refuses an empty value.\n`;
    },
    () => {
      delete current[base.obsolete];
    },
  ];
  for (let turn = 0; turn < Math.min(finishedTurns, steps.length); turn++) steps[turn]!(turn);
  for (let turn = steps.length; turn < finishedTurns; turn++) current['PLAN.md'] += `\nTurn ${turn + 1}: follow-up done.\n`;
  const projectDir = projectDirOf(workingDir, conversation.selected_repository);
  // An upload is decoded when its text is read, once: a request that reads one file (or none) does
  // not decode every megabyte uploaded, and an archive decodes them one by one (#29 finding 11).
  for (const [path, content] of Object.entries(uploads)) {
    if (path.startsWith(`${projectDir}/`)) lazyText(current, path.slice(projectDir.length + 1), () => uploadText(content));
  }
  const changes: GitChange[] = [];
  for (const path of [...new Set([...Object.keys(original), ...Object.keys(current)])].sort()) {
    if (!(path in original)) changes.push({ status: 'ADDED', path });
    else if (!(path in current)) changes.push({ status: 'DELETED', path });
    else if (original[path] !== current[path]) changes.push({ status: 'UPDATED', path });
  }
  return { projectDir, original, current, changes };
}

/**
 * A path given to the file route, as the real route resolves it (`_resolve_file_path`): inside
 * the project, re-anchored from the web client's stale roots, or relative to the project; the
 * path relative to the project directory, or `null` when it is outside it.
 */
export function resolveInWorkspace(workspace: Workspace, filePath: string, workingDir: string, repository: string | null): string | null {
  const project = workspace.projectDir.replace(/\/+$/, '');
  const normalized = filePath.replace(/\/+$/, '');
  const relative = (absolute: string) =>
    absolute === project ? '' : absolute.startsWith(`${project}/`) ? absolute.slice(project.length + 1) : null;
  if (!normalized.startsWith('/')) return normalized.split('/').includes('..') ? null : normalized;
  const inside = relative(normalized);
  if (inside !== null) return inside.split('/').includes('..') ? null : inside;
  const repo = repository?.split('/').at(-1);
  const roots = [
    ...new Set(
      [
        repo ? `${workingDir}/project/${repo}` : '',
        `${workingDir}/project`,
        workingDir,
        repo ? `/workspace/project/${repo}` : '',
        '/workspace/project',
        '/workspace',
      ].filter(Boolean),
    ),
  ].sort((a, b) => b.length - a.length);
  for (const root of roots) {
    if (normalized === root || normalized.startsWith(`${root}/`)) {
      const remainder = normalized.slice(root.length).replace(/^\/+/, '');
      return remainder.split('/').includes('..') ? null : remainder;
    }
  }
  return null;
}
