/** Writes the docs' reference pages from the code's own tables (`npm run docs:reference`). */
import { writeFile } from 'node:fs/promises';
import { referencePages } from './docs-reference.js';

for (const [path, text] of Object.entries(await referencePages())) {
  await writeFile(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
