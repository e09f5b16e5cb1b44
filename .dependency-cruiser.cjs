/**
 * The direction of dependencies in `src`, checked by dependency-cruiser (`npm test` runs it through
 * test/layering/dependency-rules.test.ts): DESIGN's layers
 *   schemas ← domain ← instance ← http ← surfaces ← mounts ← transports
 * (a module imports only from its own layer or a lower one), no surface importing another, the
 * domain's areas in one order, and no import circle. Type-only and dynamic imports count.
 */

/** The layers, lowest first: each a name and the paths (regular expressions from the repository root) it holds. */
const LAYERS = [
  ['schemas', ['^src/schemas/']],
  ['domain', ['^src/domain/']],
  ['instance', ['^src/instance/', '^src/options\\.ts$']],
  ['http', ['^src/http/', '^src/service-facade\\.ts$']],
  ['surfaces', ['^src/surfaces/']],
  ['mounts', ['^src/mounts/']],
];

/**
 * The domain's areas, lowest first: an area imports from its own folder and the areas before it
 * only. `service.ts` (the front over every area) is last.
 */
const DOMAIN_AREAS = [
  'store',
  'time',
  'llm',
  'user',
  'fixtures',
  'agent-world',
  'agent',
  'sandboxes',
  'conversations',
  'legacy',
  'recording',
];

/** The surfaces: each imports none of the others (what they share sits in `src/surfaces/*.ts`). */
const SURFACES = ['agent-server', 'app-server', 'control', 'llm'];

/** `paths` joined into one regular expression. */
const any = (paths) => paths.join('|');

const layerRules = LAYERS.slice(0, -1).map(([name, paths], index) => ({
  name: `layer-${name}`,
  comment: `${name} imports nothing from a higher layer (${LAYERS.slice(index + 1)
    .map(([above]) => above)
    .join(', ')}, transports)`,
  severity: 'error',
  from: { path: any(paths) },
  to: {
    path: '^src/',
    pathNot: any(LAYERS.slice(0, index + 1).flatMap(([, lower]) => lower)),
  },
}));

const surfaceRules = SURFACES.map((surface) => ({
  name: `surface-${surface}`,
  comment: `the ${surface} surface imports no other surface`,
  severity: 'error',
  from: { path: `^src/surfaces/${surface}/` },
  to: { path: '^src/surfaces/[^/]+/', pathNot: `^src/surfaces/${surface}/` },
}));

const domainRules = DOMAIN_AREAS.map((area, index) => ({
  name: `domain-${area}`,
  comment: `the domain's ${area} area imports only ${index === 0 ? 'itself' : `itself and ${DOMAIN_AREAS.slice(0, index).join(', ')}`}`,
  severity: 'error',
  from: { path: `^src/domain/${area}/` },
  to: {
    path: '^src/domain/',
    pathNot: any(DOMAIN_AREAS.slice(0, index + 1).map((lower) => `^src/domain/${lower}/`)),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    ...surfaceRules,
    ...domainRules,
    {
      name: 'no-circular',
      comment: 'no import circle, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
