/**
 * The docs hold together: the README stays a quickstart (at most 15 KB), the generated reference
 * pages are what the code's tables make now, every guide is linked from the README, and every
 * relative link and anchor of the Markdown pages (README, CONTRIBUTING, SECURITY, bench/README,
 * docs/**) leads somewhere, as GitHub and the docs site (VitePress) slug the headings.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../scripts/docs-reference.js';
import { GUIDE_PAGES, README_FILE } from '../support/readme.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Every Markdown page of the docs, by its path from the root. */
function markdownPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => `docs/${path}`);
  return ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'BENCHMARKS.md', 'bench/README.md', ...docs].sort();
}

/** A heading's anchor as GitHub makes it. */
const githubSlug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** A heading's anchor as VitePress makes it (its `slugify`). */
const vitepressSlug = (heading: string): string =>
  heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();

/** The headings of a Markdown text, outside its code blocks, as written. */
const headings = (text: string): string[] =>
  text
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, ''));

/** The relative links of a Markdown text (`[text](target)`, images too), outside its code blocks and code spans. */
const links = (text: string): string[] =>
  [
    ...text
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));

describe('the README', () => {
  it('is a quickstart of at most 15 KB', () => {
    expect(Buffer.byteLength(README_FILE)).toBeLessThanOrEqual(15 * 1024);
  });

  it('links every guide and every reference page', () => {
    const guides = readdirSync(join(ROOT, 'docs/guide')).map((name) => name.replace(/\.md$/, ''));
    expect(guides.sort()).toEqual([...GUIDE_PAGES].sort());
    for (const page of GUIDE_PAGES) expect(README_FILE).toContain(`(docs/guide/${page}.md)`);
    for (const path of readdirSync(join(ROOT, 'docs/reference'))) expect(README_FILE).toContain(`(docs/reference/${path})`);
  });
});

describe('the generated reference pages', () => {
  it('are what `npm run docs:reference` writes from the code now', async () => {
    const pages = await referencePages();
    expect(Object.keys(pages).sort()).toEqual(
      readdirSync(join(ROOT, 'docs/reference'))
        .map((name) => `docs/reference/${name}`)
        .sort(),
    );
    for (const [path, text] of Object.entries(pages)) {
      expect(readFileSync(join(ROOT, path), 'utf8'), `${path} is stale: run npm run docs:reference`).toBe(text);
    }
  });
});

describe('the links of the docs', () => {
  const pages = markdownPages();

  it('finds the pages', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/guide/tests.md', 'docs/reference/routes.md', 'bench/README.md']));
  });

  it.each(pages)('%s: every relative link leads to a file, and every anchor to a heading GitHub and VitePress slug alike', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const dead: string[] = [];
    for (const target of links(text)) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : join(dirname(join(ROOT, page)), decodeURIComponent(path));
      if (!existsSync(file)) {
        dead.push(`${target}: no file ${relative(ROOT, file)}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!file.endsWith('.md') || statSync(file).isDirectory()) {
        dead.push(`${target}: an anchor into a file that is not Markdown`);
        continue;
      }
      const found = headings(readFileSync(file, 'utf8')).some((h) => githubSlug(h) === anchor && vitepressSlug(h) === anchor);
      if (!found) dead.push(`${target}: no heading of ${relative(ROOT, file)} has the anchor #${anchor} on GitHub and in VitePress`);
    }
    expect(dead).toEqual([]);
  });
});
