/**
 * The one socket dispatcher of every transport (the node server's upgrades, msw's `ws.link`): from
 * a URL to its mount, the socket route its surface declares there (`SurfaceSpec.sockets`), and the
 * instance it reaches (a tenant's, named by header, cookie or `?fakehands_tenant=`). A transport
 * only carries frames: it places the URL, accepts it (or answers the refusal its own way) and opens
 * the accepted socket over its peer.
 */
import { isRefusal, type Refusal } from '../domain/store/refusal.js';
import { matchPath } from '../instance/path-pattern.js';
import type { ServedSocket, SocketPeer, SocketRoute } from '../surfaces/surface.js';
import type { Mount, Mounts } from './mounts.js';

/** Where a socket URL lands: its mount, its path under the mount, and the socket route there. */
export interface SocketPlacement {
  /** The mount. */
  mount: Mount;
  /** The path under the mount's prefix. */
  path: string;
  /** The surface's socket route that serves it. */
  route: SocketRoute;
}

/** A socket accepted: opens it over the transport's peer once the connection is upgraded. */
export type AcceptedSocket = (peer: SocketPeer) => ServedSocket;

/** Where the socket URL `url` lands, or `null` when no mounted surface declares a socket route there. */
export function placeSocket(mounts: Mounts, url: URL): SocketPlacement | null {
  const placed = mounts.find(url);
  if (!placed) return null;
  const route = placed.mount.surface.sockets?.find((r) => matchPath(r.path, placed.path) !== null);
  return route ? { ...placed, route } : null;
}

/**
 * Accepts a socket placed at `placement`: finds its instance (its tenant's, made on first use) and
 * loads what serves the route. A refusal (a bad tenant name, one tenant too many) is answered by
 * the transport; a failure (a tenant that could not be made) rejects.
 */
export async function acceptSocket(
  mounts: Mounts,
  placement: SocketPlacement,
  url: URL,
  headers: { get(name: string): string | null },
): Promise<AcceptedSocket | Refusal> {
  const [instance, open] = await Promise.all([mounts.instanceFor(placement, headers, url), placement.route.load()]);
  if (isRefusal(instance)) return instance;
  return (peer) => open(instance, { path: placement.path, url, headers }, peer);
}

/** Each socket route of every mount, with the URL pattern a pattern-matching transport (msw's `ws.link`) listens on: `ws(s)://` and each `:name` segment a `*`. */
export function socketRoutes(mounts: Mounts): { mount: Mount; route: SocketRoute; pattern: string }[] {
  return mounts.list.flatMap((mount) =>
    (mount.surface.sockets ?? []).map((route) => ({
      mount,
      route,
      pattern: `${mount.origin.replace(/^http/, 'ws')}${mount.prefix}${route.path.replace(/\/:\w+/g, '/*')}`,
    })),
  );
}
