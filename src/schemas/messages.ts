/**
 * zod's English messages. The schemas are written with `zod/mini` (its functions tree-shake, so a
 * page bundles only the checks it uses: issue 23), which ships without a locale and says only
 * "Invalid input". Loading zod's own English locale once keeps every message the fake shows (a bad
 * fixture, a bad option, a pydantic `value_error`) as classic zod wrote it. The config is zod's
 * global one, as importing classic zod sets it.
 */
import { config } from 'zod/v4/core';
// The English locale alone: zod/locales' index loads all 68 of them (0.2 s of every import of fakehands).
import * as english from 'zod/v4/locales/en.js';

// From zod/v4/core rather than zod/mini's namespace: esbuild's code splitting then leaves zod's
// JSON Schema writer out of a page's first chunk (only the OpenAPI document needs it).
/** The locale's function, however it arrives: an ES module's default export, or (the CommonJS build requiring the ES module) inside the namespace it got as default. */
const en: typeof english.default =
  typeof english.default === 'function' ? english.default : (english.default as unknown as { default: typeof english.default }).default;
config(en());
