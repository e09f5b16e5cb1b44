/**
 * Tenants: isolated instances behind one fake, for parallel test workers on one server. A request
 * names its tenant with the `X-Fakehands-Tenant` header or a `fakehands_tenant` cookie; no name is
 * the default tenant (the fake as it always was). A tenant is created on first use from the fake's
 * options (its fixture, seed, timings), has its own state, clock, faults, journal and agent logs, and
 * is listed and deleted through the control API. Names and the number of tenants are bounded.
 */
import { hashOf } from '../domain/store/ids.js';
import { Refusal } from '../domain/store/refusal.js';

/** The header that names a request's tenant. */
export const TENANT_HEADER = 'x-fakehands-tenant';
/** The cookie that names a browser page's tenant (one cookie pins a page under test). */
export const TENANT_COOKIE = 'fakehands_tenant';
/** The name of the default tenant (the fake without a tenant). */
export const DEFAULT_TENANT = 'default';
/** What a tenant name may be: a letter or digit, then letters, digits, `.`, `_` or `-`, at most 64 in all. */
export const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Most tenants one fake holds unless `maxTenants` says otherwise. */
export const DEFAULT_MAX_TENANTS = 64;

/**
 * The seed a tenant's ids and keys are drawn with: the fake's seed mixed with the tenant's name, so
 * each tenant is deterministic and no two share ids or session keys (a key of one never opens
 * another's conversation).
 * @example
 * tenantSeed(1, 'worker-a') // the same number on every run, another for 'worker-b'
 */
export function tenantSeed(seed: number, name: string): number {
  return hashOf(`fakehands-tenant\u0000${name}\u0000${seed}`);
}

/** A tenant as the control API lists it. */
export interface TenantInfo {
  /** Its name. */
  name: string;
  /** When it was created (ISO). */
  created_at: string;
  /** When a request last reached it (ISO). */
  last_used_at: string;
}

/**
 * Reads a cookie of a `Cookie` header, percent-decoded when it decodes; a value that does not
 * (`%`, `%ZZ`, a cut UTF-8 sequence) is kept as sent, as the `cookie` package reads one, so the
 * name check refuses it with a 400 that shows it (never a `URIError`, which was a 500 everywhere).
 */
function cookie(header: string | null, name: string): string | null {
  // A request without the cookie (most: no cookie header at all) splits nothing.
  if (header === null || !header.includes(name)) return null;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return percentDecoded(value.join('='));
  }
  return null;
}

/** `text` percent-decoded, or as it is when it is not valid percent-encoding. */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What a tenant holds: an instance (`instance.ts`), seen here only as far as expiry needs it. */
export interface TenantInstance {
  /** Its open sockets, and when the last one closed (epoch ms). */
  connections(): { open: number; lastClosedAt: number };
}

/** Where tenants are kept between runs (the standalone server's `--state-file` keeps every tenant). */
export interface TenantPersistence<Instance extends TenantInstance = TenantInstance> {
  /** The saved state of a tenant, to start it from instead of the fixture; `null` when none is saved. */
  fixture(name: string): Promise<unknown | null>;
  /** A tenant was made: follow its changes. */
  created(name: string, instance: Instance): void;
  /** A tenant was dropped: forget what was saved of it (the drop is answered once this resolves). */
  deleted(name: string): Promise<void>;
}

/** Resolves after a turn of the event loop (its I/O included): `setImmediate` where there is one, a timer in a browser. */
const aTurn = (): Promise<void> =>
  new Promise((resolve) => {
    const later =
      (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate ??
      ((callback: () => void) => setTimeout(callback, 0));
    later(resolve);
  });

/** A tenant held: its instance (being made, then made), when it was made and last used (epoch ms). */
interface Held<Instance> {
  instance: Promise<Instance>;
  made: Instance | null;
  created: number;
  used: number;
}

/** The tenants of one fake, besides its default instance (generic over what a tenant holds, so this module needs no instance). */
export class Tenants<Instance extends TenantInstance> {
  readonly #instances = new Map<string, Held<Instance>>();
  readonly #create: (name: string, saved: unknown | null) => Promise<Instance>;
  /** The last tenant being made: tenants are made one at a time, with a turn of the event loop between two. */
  #making: Promise<unknown> = Promise.resolve();
  /** Where tenants are kept between runs, when they are (set before the first request). */
  persistence: TenantPersistence<Instance> | null = null;
  /** Most tenants held at once (the default one not counted). */
  readonly maxTenants: number;
  /** A tenant not used for this long is dropped (`null`: never). */
  readonly idleMs: number | null;

  /** Tenants made by `create` (from a saved state when there is one), at most `maxTenants`, dropped after `idleMs` unused. */
  constructor(
    create: (name: string, saved: unknown | null) => Promise<Instance>,
    options: { maxTenants?: number; idleMs?: number | null } = {},
  ) {
    this.#create = create;
    this.maxTenants = options.maxTenants ?? DEFAULT_MAX_TENANTS;
    this.idleMs = options.idleMs ?? null;
  }

  /**
   * The tenant a request names (header first, then cookie, then a socket URL's query): `null` for the default tenant, or a
   * 400 refusal for a name that is not one.
   */
  nameOf(headers: { get(name: string): string | null }, url?: Pick<URL, 'search' | 'searchParams'>): string | null | Refusal {
    // A socket may name it in its URL (`?fakehands_tenant=`): an in-process WebSocket has no headers or cookies.
    const given =
      headers.get(TENANT_HEADER) ??
      cookie(headers.get('cookie'), TENANT_COOKIE) ??
      // A URL without a query has no tenant in it: its `searchParams` object is not made for every request.
      (url?.search ? url.searchParams.get(TENANT_COOKIE) : null) ??
      null;
    return given === null ? null : this.checkName(given);
  }

  /** A tenant name as given (by a request, or in process by `fake.tenant(name)`): `null` for the default tenant, or a 400 refusal for a name that is not one. */
  checkName(given: string): string | null | Refusal {
    if (given === DEFAULT_TENANT) return null;
    if (!TENANT_NAME.test(given)) {
      return new Refusal(
        'bad_request',
        `Invalid tenant name ${JSON.stringify(given.slice(0, 80))}: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
      );
    }
    return given;
  }

  /** The tenant `name`, created on first use; 429 when the fake holds `maxTenants` already. */
  async get(name: string): Promise<Instance | Refusal> {
    const now = Date.now();
    const held = this.#instances.get(name);
    // Used now, before the idle ones go: a request never expires the tenant it names.
    if (held) held.used = now;
    this.#expire();
    if (held) return held.instance;
    if (this.#instances.size >= this.maxTenants) {
      return new Refusal(
        'too_many',
        `Too many tenants: this fake holds at most ${this.maxTenants}; delete one (DELETE /_fakehands/tenants/{name}) or raise --max-tenants`,
      );
    }
    const persistence = this.persistence;
    const entry: Held<Instance> = {
      // Made later (one at a time), so `entry` is there by then.
      instance: this.#oneAtATime(async () => {
        const made = await this.#create(name, persistence ? await persistence.fixture(name) : null);
        persistence?.created(name, made);
        entry.made = made;
        return made;
      }),
      made: null,
      created: now,
      used: now,
    };
    const { instance } = entry;
    this.#instances.set(name, entry);
    try {
      return await instance;
    } catch (error) {
      this.#instances.delete(name);
      throw error;
    }
  }

  /**
   * Runs `make` once the tenant made before it is done and the event loop has had a turn: a burst
   * of new tenants (1,000 workers starting at once) is made in order, and a request to any other
   * tenant (a health check) waits for one tenant's making at most, never for the whole burst.
   */
  #oneAtATime<T>(make: () => Promise<T>): Promise<T> {
    const made = this.#making.then(make);
    this.#making = made.then(aTurn, aTurn);
    return made;
  }

  /** The tenants held, by name. */
  list(): TenantInfo[] {
    this.#expire();
    return [...this.#instances]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => ({ name, created_at: new Date(t.created).toISOString(), last_used_at: new Date(t.used).toISOString() }));
  }

  /** Drops a tenant and everything it holds; `false` when there is none of that name. */
  async delete(name: string): Promise<boolean> {
    const deleted = this.#instances.delete(name);
    if (deleted) await this.persistence?.deleted(name);
    return deleted;
  }

  /** The names of the tenants saved or held (what a persistence layer may list at start-up is its own). */
  names(): string[] {
    return [...this.#instances.keys()];
  }

  /**
   * Drops the tenants idle for longer than `idleMs`. A tenant with a socket open is not idle (its
   * last use is when its last socket closed, if that is later than its last request), and one still
   * being made is not dropped: expiry never deletes what a live client holds.
   */
  #expire(): void {
    if (this.idleMs === null) return;
    const cutoff = Date.now() - this.idleMs;
    for (const [name, t] of this.#instances) {
      if (!t.made) continue;
      const { open, lastClosedAt } = t.made.connections();
      if (open === 0 && Math.max(t.used, lastClosedAt) < cutoff) void this.delete(name);
    }
  }
}
