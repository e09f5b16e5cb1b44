// Writes fakehands.config.schema.json, the JSON Schema of fakehands.config.json for editors, from the zod schema the CLI validates the file with.
import { writeFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { ConfigFile } from '../src/cli.js';

writeFileSync(
  new URL('../fakehands.config.schema.json', import.meta.url),
  `${JSON.stringify(z.toJSONSchema(ConfigFile, { io: 'input' }), null, 2)}\n`,
);
