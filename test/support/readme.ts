/** The README's and the docs' code blocks, read once, for the tests that run them. */
import { readFileSync } from 'node:fs';

/** The guide pages, in reading order: the README's links and the docs site's sidebar list them so. */
export const GUIDE_PAGES = [
  'getting-started',
  'tests',
  'dev-server',
  'app-server',
  'agent-server',
  'agent-scripts',
  'agent-host',
  'streaming-and-replay',
  'tenants',
  'fixtures',
  'browser',
  'control-api',
  'contracts-and-drift',
  'real-openhands',
  'recording',
] as const;

/** A file of the repository, by its path from the root. */
export const docPage = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The README's own text. */
export const README_FILE = docPage('README.md');

/** The README and every guide page, in reading order: the text whose samples the tests run. */
export const README = [README_FILE, ...GUIDE_PAGES.map((page) => docPage(`docs/guide/${page}.md`))].join('\n');

/** The fenced blocks in a language (`ts`, `sh`, ...) of `text` (default: the README and the guides), in order. */
export const readmeBlocks = (lang: string, text: string = README): string[] =>
  [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** The text of one section: from its heading to the next heading of its level or above. */
export const section = (heading: string, text: string = README): string => {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}" in the README or the guides`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = text.slice(start + heading.length);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return heading + (end < 0 ? rest : rest.slice(0, end));
};

/** First lines of the TypeScript blocks that are not Node modules: vitest files (run by a vitest run), browser code (run in Chromium), Playwright files (run by Playwright). */
const NOT_NODE_MODULES = ['// test/', '// src/mocks.ts', '// .storybook/', '// e2e/', '// playwright.config.ts'];

/** The TypeScript blocks that run as Node modules. */
export const nodeExamples = (): string[] => readmeBlocks('ts').filter((code) => !NOT_NODE_MODULES.some((first) => code.startsWith(first)));

/** The file a block says it is on its first line (`// e2e/fakehands.ts: ...` → `e2e/fakehands.ts`), or null. */
export const fileOf = (code: string): string | null => /^\/\/ ([\w./-]+\.ts)\b/.exec(code)?.[1] ?? null;

/** The TypeScript block written as the file `path`. */
export const readmeFile = (path: string): string => {
  const block = readmeBlocks('ts').find((code) => fileOf(code) === path);
  if (!block) throw new Error(`neither the README nor a guide has a block for ${path}`);
  return block;
};
