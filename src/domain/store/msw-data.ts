/**
 * @msw/data's `Collection`, the one place the domain takes it from. The build (scripts/bundle-cli.mjs)
 * replaces this module's output with @msw/data bundled in one file: its own ESM build imports
 * es-toolkit's `compat` index, about 550 modules that Node loads one by one (0.3–0.5 s of CPU, more
 * than msw itself: BENCHMARKS "Import cost"), where a bundle keeps the three helpers it uses.
 */
export { Collection } from '@msw/data';
