/**
 * Mounts: who answers a URL. One dispatcher from a URL (its origin and path prefix) to an instance
 * and the surface that answers there; every transport (msw handlers, the node server, the browser
 * worker) takes mounts, never a bare base URL. A new kind of host (an agent server per sandbox) or
 * a tenant is a new mount here; `defaultMounts` is what `createFake()` builds.
 */
import { answer as answerOn, isContractViolation } from '../http/pipeline.js';
import { json, type Answer, type RequestLike, type RequestUrl } from '../http/responses.js';
import type { Instance } from '../instance/instance.js';
import { appServerSurface } from '../surfaces/app-server/index.js';
import { CONTROL_PREFIX, controlSurface } from '../surfaces/control/index.js';
import type { Surface } from '../surfaces/surface.js';
import { agentServerSurface } from '../surfaces/agent-server/index.js';
import { FakehandsError } from '../domain/store/errors.js';
import { isRefusal, type Refusal } from '../domain/store/refusal.js';
import type { Tenants } from '../instance/tenants.js';

/** One mount: requests under `origin` + `prefix` reach `instance`, answered by `surface`. */
export interface Mount {
  /** The origin served (`http://localhost:3000`). */
  readonly origin: string;
  /** The path prefix, without a trailing slash (`''` for the whole origin). */
  readonly prefix: string;
  /** The instance requests reach. */
  readonly instance: Instance;
  /** The surface that answers them. */
  readonly surface: Surface;
}

/** Where a URL lands: its mount and its path relative to the mount's prefix. */
export interface Placement {
  /** The mount. */
  mount: Mount;
  /** The path under the prefix (`/` for the prefix itself). */
  path: string;
}

/** The 404 of a URL outside every mount: never passed on to a surface with its prefix left on. */
const OUTSIDE = (): Answer => json(404, { detail: 'Not Found' });

/** The mounts of one fake (or one server): finds where a URL lands and answers it there. */
export class Mounts {
  /** The mounts, longest prefix first, so a nested mount (the control API) wins over its parent. */
  readonly list: readonly Mount[];
  /** The fake's tenants: a request that names one reaches its instance instead of the mount's (`null`: no tenants). */
  readonly tenants: Tenants<Instance> | null;

  /** Mounts `mounts` (their prefixes normalised: a leading slash, no trailing one), with `tenants` when the fake has them. */
  constructor(mounts: readonly Mount[], tenants: Tenants<Instance> | null = null) {
    this.tenants = tenants;
    this.list = Object.freeze(
      mounts
        .map((m) => Object.freeze({ ...m, origin: new URL(m.origin).origin, prefix: normalisePrefix(m.prefix) }))
        .sort((a, b) => b.prefix.length - a.prefix.length),
    );
  }

  /** Where `url` lands, or `null` when it is outside every mount. */
  find(url: RequestUrl): Placement | null {
    const origin = url.origin;
    const path = url.pathname;
    for (const mount of this.list) {
      if (mount.origin !== origin) continue;
      if (mount.prefix === '') return { mount, path };
      if (path === mount.prefix) return { mount, path: '/' };
      if (path.startsWith(`${mount.prefix}/`)) return { mount, path: path.slice(mount.prefix.length) };
    }
    return null;
  }

  /** Whether `url` lands on a mount whose surface answers its path (see `SurfaceSpec.paths`). */
  owns(url: RequestUrl): boolean {
    const placed = this.find(url);
    return placed !== null && placed.mount.surface.owns(placed.path);
  }

  /** The URL roots the mounts cover, without one covered by another (`origin + prefix`), for transports that match by pattern. */
  roots(): string[] {
    const roots = this.list.map((m) => `${m.origin}${m.prefix}`);
    return [...new Set(roots)].filter((root) => !roots.some((other) => other !== root && root.startsWith(`${other}/`)));
  }

  /**
   * Answers a request wherever it lands: the surface's answer, or a 404 outside every mount.
   * `tenant` (a name checked by `Tenants.checkName`) is the tenant it reaches when the caller knows it
   * in process (a tenant's own `fetch`); without it the request names its tenant itself.
   * Unexpected errors propagate (each transport answers them as a 500 its own way).
   */
  answer(request: RequestLike, tenant?: string): Promise<Answer> {
    // Not `async`: a request of the default tenant goes on to the pipeline with no promise of its own here.
    try {
      const url: RequestUrl = request.parsedUrl ?? new URL(request.url);
      const placed = this.find(url);
      if (!placed) return Promise.resolve(OUTSIDE());
      const instance = this.instanceFor(placed, request.headers, url, tenant);
      // A closure only for a tenant looked up: the default one's request goes on at once.
      if (instance instanceof Promise) return instance.then((found) => answerPlaced(placed, found, request, url));
      return answerPlaced(placed, instance, request, url);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The instance a request placed at `placed` reaches: the tenant `tenant` when given, else the one
   * its headers (or a socket URL) name (created on first use), or the mount's; a refusal for a bad
   * tenant name or one too many. A promise only when a tenant is looked up.
   */
  instanceFor(
    placed: Placement,
    headers: { get(name: string): string | null },
    url?: RequestUrl,
    tenant?: string,
  ): Instance | Refusal | Promise<Instance | Refusal> {
    if (!this.tenants) return placed.mount.instance;
    const name = tenant ?? this.tenants.nameOf(headers, url);
    if (name === null || isRefusal(name)) return name ?? placed.mount.instance;
    return this.tenants.get(name);
  }

  /**
   * Answers a Fetch request as in-process transports do: an unexpected error is a 500
   * `{"detail": "Internal Server Error"}` (journaled), as the real server answers it; the fake's
   * own contract check stays loud and throws. `tenant` as in `answer`.
   */
  async fetch(request: Request, tenant?: string): Promise<Answer> {
    try {
      return await this.answer(request, tenant);
    } catch (error) {
      if (isContractViolation(error)) throw error;
      const placed = this.find(new URL(request.url));
      const instance = placed
        ? await Promise.resolve()
            .then(() => this.instanceFor(placed, request.headers, undefined, tenant))
            .catch(() => placed.mount.instance)
        : null;
      if (instance && !isRefusal(instance))
        instance.journal.record({
          method: request.method.toUpperCase(),
          path: placed!.path,
          query: new URL(request.url).search,
          status: 500,
          duration_ms: 0,
        });
      return json(500, { detail: 'Internal Server Error' });
    }
  }
}

/** The answer of a request placed at `placed`, on the instance it reaches (or the refusal of a bad tenant). */
function answerPlaced(placed: Placement, instance: Instance | Refusal, request: RequestLike, url: RequestUrl): Promise<Answer> {
  return isRefusal(instance)
    ? Promise.resolve(placed.mount.surface.refusalAnswer(instance))
    : answerOn(instance, placed.mount.surface, placed.path, request, url);
}

/** A prefix with a leading slash and no trailing one (`''` for the root). */
function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * The mounts of one fake at `baseUrl`: the app server there, and the control API under `/_fakehands`.
 * @example
 * const mounts = defaultMounts(instance, 'http://localhost:3000')
 */
export function defaultMounts(instance: Instance, baseUrl: string, tenants: Tenants<Instance> | null = null): Mounts {
  const url = new URL(baseUrl);
  const prefix = normalisePrefix(url.pathname);
  const mounts: Mount[] = [
    { origin: url.origin, prefix, instance, surface: appServerSurface },
    { origin: url.origin, prefix: `${prefix}${CONTROL_PREFIX}`, instance, surface: controlSurface },
  ];
  const agentUrl = instance.options.agentUrl;
  if (agentUrl !== null) {
    // The agent host's paths (/api/conversations/...) are the legacy app server's too: it needs an origin of its own.
    if (new URL(agentUrl).origin === url.origin)
      throw new FakehandsError(
        'invalid_options',
        `Failed to create the fake: agentUrl (${agentUrl}) must be another origin than baseUrl (${baseUrl}): the agent server's paths are the app server's legacy ones. Use another port.`,
      );
    mounts.push({ origin: new URL(agentUrl).origin, prefix: '', instance, surface: agentServerSurface });
  }
  return new Mounts(mounts, tenants);
}
