/** The README's code blocks, read once, for the tests that run them. */
import { readFileSync } from 'node:fs';

/** The README's text. */
export const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's fenced blocks in a language (`ts`, `sh`, ...), in order. */
export const readmeBlocks = (lang: string): string[] =>
  [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** First lines of the TypeScript blocks that are not Node modules: vitest files (run by a vitest run), browser code (run in Chromium), Playwright files (run by Playwright). */
const NOT_NODE_MODULES = ['// test/', '// src/mocks.ts', '// .storybook/', '// e2e/', '// playwright.config.ts'];

/** The README's TypeScript blocks that run as Node modules. */
export const nodeExamples = (): string[] => readmeBlocks('ts').filter((code) => !NOT_NODE_MODULES.some((first) => code.startsWith(first)));

/** The file a block says it is on its first line (`// e2e/fakehands.ts: ...` → `e2e/fakehands.ts`), or null. */
export const fileOf = (code: string): string | null => /^\/\/ ([\w./-]+\.ts)\b/.exec(code)?.[1] ?? null;

/** The README's TypeScript block written as the file `path`. */
export const readmeFile = (path: string): string => {
  const block = readmeBlocks('ts').find((code) => fileOf(code) === path);
  if (!block) throw new Error(`the README has no block for ${path}`);
  return block;
};
