/**
 * The docs site (`npm run docs:build`, VitePress): the README as its home page, the guides and the
 * generated reference pages of docs/, CONTRIBUTING.md, SECURITY.md and bench/README.md; the rest
 * of the repository is left out. A dead link fails the build (VitePress's default).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitepress';

/** The pages of a docs folder, each with its first heading, in `order` (then by name). */
function pages(folder: string, order: readonly string[] = []) {
  const names = readdirSync(new URL(`../docs/${folder}/`, import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .map((name) => name.slice(0, -3))
    .sort((a, b) => (order.indexOf(a) + 1 || 1e9) - (order.indexOf(b) + 1 || 1e9) || a.localeCompare(b));
  return names.map((name) => {
    const text = readFileSync(new URL(`../docs/${folder}/${name}.md`, import.meta.url), 'utf8');
    return { text: /^# (.+)$/m.exec(text)?.[1]?.replace(/`/g, '') ?? name, link: `/docs/${folder}/${name}` };
  });
}

/** The guides in reading order (the README's order). */
const GUIDES = [
  'getting-started', 'tests', 'dev-server', 'app-server', 'agent-server', 'agent-scripts', 'agent-host',
  'streaming-and-replay', 'tenants', 'fixtures', 'browser', 'control-api', 'contracts-and-drift', 'real-openhands', 'recording',
];

export default defineConfig({
  title: 'fakehands',
  description: 'A stateful, contract-checked fake of the OpenHands app server and agent server',
  srcExclude: ['**/node_modules/**', 'test/**', 'src/**', 'fixtures/**', 'contracts/**', 'real/**', '.tmp/**', '.cache/**', 'dist/**', 'test-results/**', 'BENCHMARKS.md'],
  rewrites: { 'README.md': 'index.md' },
  outDir: '.tmp/docs-site',
  cacheDir: '.tmp/vitepress-cache',
  cleanUrls: true,
  themeConfig: {
    nav: [
      { text: 'Guides', link: '/docs/guide/getting-started' },
      { text: 'Reference', link: '/docs/reference/routes' },
    ],
    sidebar: [
      { text: 'Guides', items: pages('guide', GUIDES) },
      { text: 'Reference (generated)', items: pages('reference', ['routes', 'cli', 'options', 'steps', 'differences']) },
      {
        text: 'Project',
        items: [
          { text: 'Contributing', link: '/CONTRIBUTING' },
          { text: 'Security', link: '/SECURITY' },
          { text: 'Benchmarks', link: '/bench/README' },
        ],
      },
    ],
    search: { provider: 'local' },
  },
});
