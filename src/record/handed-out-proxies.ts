/**
 * The recorder's proxies of the servers its target hands out (`handed-out.ts`): one per origin,
 * started the first time an answer names it, on the recorder's interface and a free port, recording
 * into the same folder with the same masking. The target's own origin is the recorder's own proxy.
 */
import type { ProxiedSocket, Proxy as ForwardingProxy } from './proxy.js';

/** The most servers one recording proxies besides its target (a target naming more gets the rest unchanged). */
export const MAX_HANDED_OUT = 64;

/** The proxies of the servers a target hands out. */
export class HandedOutProxies {
  /** The recorder's own proxy (in front of the target), once it listens. */
  main: ForwardingProxy | null = null;
  private readonly started = new Map<string, Promise<ForwardingProxy>>();
  private full = false;

  /**
   * Proxies started with `start`, for servers of `target`, on `host`.
   * @example
   * const proxies = new HandedOutProxies({ target, host: '127.0.0.1', start: (origin) => startProxy({ target: origin, ... }), note: console.error })
   */
  constructor(
    private readonly options: {
      target: URL;
      host: string;
      start(origin: URL): Promise<ForwardingProxy>;
      note(line: string): void;
    },
  ) {}

  /** How many servers are proxied besides the target. */
  get size(): number {
    return this.started.size;
  }

  /**
   * Where the client reaches `origin` through a proxy: the recorder's own for the target's origin,
   * else the one started for it (now, the first time), on the name the client used (`host`, its Host header).
   * Rejects past `MAX_HANDED_OUT` servers or when a proxy cannot start.
   */
  async proxyFor(origin: URL, host: string | undefined): Promise<URL> {
    const proxy = origin.origin === this.options.target.origin && this.main ? this.main : await this.proxyOf(origin);
    const at = new URL(proxy.url);
    const name = host && URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : at.hostname;
    return new URL(`http://${name}:${at.port}`);
  }

  /** The proxy of `origin`, started the first time. */
  private proxyOf(origin: URL): Promise<ForwardingProxy> {
    const key = origin.origin;
    let proxy = this.started.get(key);
    if (proxy) return proxy;
    if (this.started.size >= MAX_HANDED_OUT) {
      if (!this.full)
        this.options.note(
          `fakehands record: the target hands out more than ${MAX_HANDED_OUT} servers; ${key} and later ones are not proxied`,
        );
      this.full = true;
      return Promise.reject(new Error(`more than ${MAX_HANDED_OUT} servers handed out`));
    }
    proxy = this.options.start(new URL(key));
    this.started.set(key, proxy);
    proxy.then(
      (p) => this.options.note(`fakehands record: ${key}, which the target hands out, is recorded through ${p.url}`),
      (error: Error) => {
        this.started.delete(key);
        this.options.note(
          `fakehands record: cannot proxy ${key}, which the target hands out (${error.message}); its URLs are sent on as they are`,
        );
      },
    );
    return proxy;
  }

  /** Stops every proxy started; resolves with each one's server and its sockets still open. */
  async close(): Promise<[URL, ProxiedSocket[]][]> {
    const open: [URL, ProxiedSocket[]][] = [];
    for (const [origin, started] of this.started) {
      const proxy = await started.catch(() => null);
      if (proxy) open.push([new URL(origin), await proxy.close()]);
    }
    return open;
  }
}
