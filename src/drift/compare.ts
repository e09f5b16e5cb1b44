/**
 * Compares the operation facts of the fake's OpenAPI document with a provider's: every fact that
 * differs is a difference, named by operation and JSON path; a difference declared in
 * `known-differences.ts` is reported as known; a declaration that no longer matches anything is
 * reported as stale.
 */
import type { Fact, OperationFacts } from './operations.js';
import { operationKey } from './operations.js';

/** A deliberate difference between the fake and the real service, declared once with its reason. */
export interface KnownDifference {
  /** The operation, as `METHOD /path` (parameter names do not matter). */
  operation: string;
  /** The fact's location (`response items[].status_detail`), or `operation` for a whole operation; without an aspect, the fields inside it too. */
  location: string;
  /** Only this aspect of the location (`type`, `enum`, `required`, `bounds`, `declared`); all when left out. */
  aspect?: Fact['aspect'] | 'served';
  /** Why the fake differs, in one sentence. */
  reason: string;
  /** Where the declaration is written (your `--known` file), named when it goes stale; fakehands' own declarations have none. */
  source?: string;
}

/** One fact on which the two documents disagree. */
export interface Difference {
  /** The operation, as the provider spells it (or the fake, when the provider lacks it). */
  operation: string;
  /** Where: `response items[].status`, `query limit`, `operation`. */
  location: string;
  /** What about it. */
  aspect: Fact['aspect'] | 'served';
  /** The provider's value, or `absent`. */
  provider: string;
  /** The fake's value, or `absent`. */
  fake: string;
  /** Why, when it is a declared difference. */
  reason?: string;
}

/** What `fakehands drift` found. */
export interface DriftReport {
  /** Differences nobody declared: each fails the check. */
  differences: Difference[];
  /** Declared differences, with their reasons. */
  known: Difference[];
  /** Declarations that match no difference any more (fakehands' own among them: see `builtInStale`). */
  stale: KnownDifference[];
  /** How many of `stale` are fakehands' own declarations (nothing for you to do: your provider agrees with the fake there). */
  builtInStale: number;
  /** Operations the fake serves under paths no given document covers (the legacy routes, when only the V1 document is given): not compared. */
  notCovered: number;
  /** Operations both documents have. */
  compared: number;
  /** Operations of the provider under the compared prefixes that the fake does not serve. */
  missing: number;
  /** Facts of the operations both have: how many agree, and how many of the others differ under a declared difference. */
  facts: { total: number; agree: number; declared: number };
}

/** How many facts each difference of a compared operation stands for (a field absent on one side stands for every fact of it). */
const FACTS_OF = new WeakMap<Difference, number>();

const ABSENT = 'absent';

/** The parent location of a field location (`response items[].a.b` → `response items[].a`), or null at the top. */
function parentOf(location: string): string | null {
  const at = Math.max(location.lastIndexOf('.'), location.lastIndexOf('[]'), location.lastIndexOf('{}'), location.lastIndexOf(' '));
  if (at <= 0) return null;
  const parent = location.slice(0, at);
  return parent.endsWith(' ') ? null : parent;
}

function compareOperation(provider: OperationFacts, fake: OperationFacts, out: Difference[]): { total: number; agree: number } {
  let total = 0;
  let agree = 0;
  const keys = new Set([...provider.facts.keys(), ...[...fake.facts.keys()].filter((k) => !k.startsWith('status '))]);
  const absentIn = (facts: Map<string, Fact>, location: string) =>
    !facts.has(`${location} type`) && !facts.has(`${location} declared`) && !facts.has(`${location} required`);
  const reported = new Set<string>();
  const absent = new Map<string, Difference>();
  for (const key of [...keys].sort()) {
    total++;
    const p = provider.facts.get(key);
    const f = fake.facts.get(key);
    if (p && f && p.value === f.value) {
      agree++;
      continue;
    }
    const fact = (p ?? f)!;
    const location = fact.location;
    const wholeLocationAbsent = absentIn(provider.facts, location) || absentIn(fake.facts, location);
    let hidden: string | null = null;
    for (let parent = parentOf(location); parent; parent = parentOf(parent)) {
      if (reported.has(parent) && (absentIn(provider.facts, parent) || absentIn(fake.facts, parent))) hidden = parent;
    }
    const countIn = (at: string) => {
      const difference = absent.get(at);
      if (difference) FACTS_OF.set(difference, (FACTS_OF.get(difference) ?? 0) + 1);
    };
    if (hidden !== null) {
      countIn(hidden);
      continue;
    }
    if (wholeLocationAbsent) {
      if (reported.has(location)) {
        countIn(location);
        continue;
      }
      reported.add(location);
      const pType =
        provider.facts.get(`${location} type`) ?? provider.facts.get(`${location} declared`) ?? provider.facts.get(`${location} required`);
      const fType = fake.facts.get(`${location} type`) ?? fake.facts.get(`${location} declared`) ?? fake.facts.get(`${location} required`);
      const difference: Difference = {
        operation: provider.name,
        location,
        aspect: (pType ?? fType)!.aspect,
        provider: pType?.value ?? ABSENT,
        fake: fType?.value ?? ABSENT,
      };
      absent.set(location, difference);
      FACTS_OF.set(difference, 1);
      out.push(difference);
      continue;
    }
    reported.add(location);
    const difference: Difference = {
      operation: provider.name,
      location,
      aspect: fact.aspect,
      provider: p?.value ?? ABSENT,
      fake: f?.value ?? ABSENT,
    };
    FACTS_OF.set(difference, 1);
    out.push(difference);
  }
  return { total, agree };
}

/** Whether a declaration covers a location: the same one, or (without an aspect) a field inside it. */
function covers(declaration: KnownDifference, location: string): boolean {
  if (declaration.location === location) return true;
  return declaration.aspect === undefined && [' ', '.', '[', '{'].some((next) => location.startsWith(`${declaration.location}${next}`));
}

const normalize = (operation: string) => {
  const [method, path] = operation.split(' ');
  return operationKey(method ?? '', path ?? '');
};

/**
 * Whether two operations (`METHOD /path`) are the same, whatever their parameters are named.
 * @example
 * operationNamesMatch('GET /a/{id}', 'GET /a/{name}') // true
 */
export const operationNamesMatch = (a: string, b: string): boolean => normalize(a) === normalize(b);

/**
 * Compares the fake's operations with the provider's. `inScope` says which provider paths the
 * fake is expected to serve (their absence is a difference).
 * @example
 * const report = compareOperations(providerOps, fakeOps, (path) => path.startsWith('/api/v1/sandboxes'), KNOWN_DIFFERENCES)
 */
export function compareOperations(
  provider: Map<string, OperationFacts>,
  fake: Map<string, OperationFacts>,
  inScope: (path: string) => boolean,
  known: readonly KnownDifference[] = [],
  covered: (path: string) => boolean = () => true,
  builtIn: ReadonlySet<KnownDifference> = new Set(),
): DriftReport {
  const all: Difference[] = [];
  let compared = 0;
  let missing = 0;
  const facts = { total: 0, agree: 0, declared: 0 };
  for (const [key, operation] of provider) {
    const ours = fake.get(key);
    if (ours) {
      compared++;
      const counted = compareOperation(operation, ours, all);
      facts.total += counted.total;
      facts.agree += counted.agree;
    } else if (inScope(operation.name.split(' ')[1]!)) {
      missing++;
      all.push({ operation: operation.name, location: 'operation', aspect: 'served', provider: 'served', fake: ABSENT });
    }
  }
  let notCovered = 0;
  for (const [key, operation] of fake) {
    if (provider.has(key)) continue;
    // An operation under paths no given document covers is not compared (one document at a time: the V1 one alone says nothing of the legacy routes).
    if (!covered(operation.name.split(' ')[1]!)) notCovered++;
    else all.push({ operation: operation.name, location: 'operation', aspect: 'served', provider: ABSENT, fake: 'served' });
  }
  const used = new Set<KnownDifference>();
  const differences: Difference[] = [];
  const declared: Difference[] = [];
  for (const difference of all) {
    const declaration = known.find(
      (k) =>
        normalize(k.operation) === normalize(difference.operation) &&
        covers(k, difference.location) &&
        (k.aspect === undefined || k.aspect === difference.aspect),
    );
    if (declaration) {
      used.add(declaration);
      facts.declared += FACTS_OF.get(difference) ?? 0;
      declared.push({ ...difference, reason: declaration.reason });
    } else {
      differences.push(difference);
    }
  }
  const stale = known.filter((k) => !used.has(k));
  return {
    differences,
    known: declared,
    stale,
    builtInStale: stale.filter((k) => builtIn.has(k)).length,
    compared,
    missing,
    notCovered,
    facts,
  };
}

function describe(difference: Difference): string {
  const { location, aspect, provider, fake } = difference;
  if (aspect === 'enum' && provider !== ABSENT && fake !== ABSENT) {
    const p = provider.split(', ');
    const f = fake.split(', ');
    const onlyProvider = p.filter((v) => !f.includes(v));
    const onlyFake = f.filter((v) => !p.includes(v));
    const parts = [
      onlyProvider.length ? `provider also ${onlyProvider.join(', ')}` : '',
      onlyFake.length ? `fake also ${onlyFake.join(', ')}` : '',
    ].filter(Boolean);
    return `${location} (enum): ${parts.join('; ')}`;
  }
  const label = aspect === 'type' || aspect === 'served' || aspect === 'declared' ? '' : ` (${aspect})`;
  return `${location}${label}: provider ${provider}, fake ${fake}`;
}

/** The declarations fakehands ships (`KNOWN_DIFFERENCES`, `KNOWN_AGENT_DIFFERENCES`): a stale one of them is counted, never listed as something to remove. */
const BUILT_IN = new WeakSet<KnownDifference>();
/** Marks declarations as fakehands' own (known-differences.ts does, for its lists). */
export function markBuiltIn(declarations: readonly KnownDifference[]): void {
  for (const declaration of declarations) BUILT_IN.add(declaration);
}

/**
 * The share of the compared operations' facts that agree (0 to 1; 1 when nothing was compared).
 * @example
 * if (agreement(report) < 0.9) console.log('declared differences dominate')
 */
export function agreement(report: DriftReport): number {
  return report.facts.total === 0 ? 1 : report.facts.agree / report.facts.total;
}

/**
 * Whether the check passes: no undeclared difference, and (with `minAgreement`, 0 to 1) at least
 * that share of the facts agreeing, however many differences are declared.
 * @example
 * process.exitCode = driftPasses(report, 0.9) ? 0 : 1
 */
export function driftPasses(report: DriftReport, minAgreement?: number): boolean {
  return report.differences.length === 0 && (minAgreement === undefined || agreement(report) >= minAgreement);
}

/**
 * The report as the lines `fakehands drift` prints: undeclared differences grouped by operation,
 * then the declared ones with their reasons, your stale declarations, and a summary that says
 * what each number means: how many facts agree and how many differ as declared (with
 * `minAgreement`, whether the agreeing share reaches it).
 */
export function formatReport(report: DriftReport, minAgreement?: number): string[] {
  const lines: string[] = [];
  const grouped = (differences: Difference[], withReason: boolean) => {
    const byOperation = new Map<string, Difference[]>();
    for (const d of differences) byOperation.set(d.operation, [...(byOperation.get(d.operation) ?? []), d]);
    for (const [operation, list] of [...byOperation].sort(([a], [b]) => a.localeCompare(b))) {
      for (const d of list) lines.push(`${operation} → ${describe(d)}${withReason ? ` [known: ${d.reason}]` : ''}`);
    }
  };
  grouped(report.differences, false);
  if (report.known.length) {
    lines.push('', 'Declared differences (each with its reason; they do not fail the check):');
    grouped(report.known, true);
  }
  // Only your own declarations are yours to remove; fakehands' own that did not apply are counted below.
  const yours = report.stale.filter((stale) => !BUILT_IN.has(stale));
  for (const stale of yours) {
    lines.push(
      `stale declaration: ${stale.operation} → ${stale.location}${stale.aspect ? ` (${stale.aspect})` : ''} no longer differs; remove it from ${stale.source ?? 'your declared differences'}`,
    );
  }
  const { agree, total, declared } = report.facts;
  const percent = (n: number) => `${(total === 0 ? 100 : (100 * n) / total).toFixed(1)}%`;
  const under = minAgreement !== undefined && agreement(report) < minAgreement;
  const verdict =
    report.differences.length > 0
      ? 'each fails the check'
      : under
        ? `the check fails: ${percent(agree)} of facts agree, under --min-agreement ${minAgreement}`
        : `the check passes with ${percent(agree)} of facts agreeing and ${percent(declared)} differing as declared`;
  lines.push(
    '',
    `drift: ${report.differences.length} undeclared difference(s) (${verdict}), ${report.known.length} declared (known, with a reason), ${yours.length} stale declaration(s) of yours`,
  );
  lines.push(
    `  operations: ${report.compared} compared, ${report.missing} of the provider's not served by the fake` +
      (report.notCovered
        ? `, ${report.notCovered} of the fake's under paths no given document covers (not compared; give that document with another --spec)`
        : ''),
  );
  lines.push(
    `  facts of the compared operations: ${agree} of ${total} agree (${percent(agree)}), ${declared} differ as declared (${percent(declared)}), ${total - agree - declared} undeclared (${percent(total - agree - declared)})` +
      (report.builtInStale
        ? `; ${report.builtInStale} of fakehands' own declarations did not apply (nothing to do: your document agrees with the fake there)`
        : ''),
  );
  if (declared > agree)
    lines.push(
      '  note: more facts differ as declared than agree: the check says every difference is known, not that the fake matches the document (--min-agreement SHARE fails under a share)',
    );
  return lines;
}
