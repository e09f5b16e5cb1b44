/** The README's code blocks, read once, for the tests that run them. */
import { readFileSync } from 'node:fs';

/** The README's text. */
export const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's fenced blocks in a language (`ts`, `sh`, ...), in order. */
export const readmeBlocks = (lang: string): string[] => [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** First lines of the TypeScript blocks that are not Node modules: a vitest setup file (run by a vitest run), browser code (run in Chromium), a Playwright fixture (run by Playwright). */
const NOT_NODE_MODULES = ['// test/fake.ts', '// src/mocks.ts', '// .storybook/', '// e2e/'];

/** The README's TypeScript blocks that run as Node modules. */
export const nodeExamples = (): string[] => readmeBlocks('ts').filter((code) => !NOT_NODE_MODULES.some((first) => code.startsWith(first)));
