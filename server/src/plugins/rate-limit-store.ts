import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { WindowCounter } from '../db/rate-limits.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/** What @fastify/rate-limit really hands a store: its merged options, and for a route's own limit the route. */
interface LimitOptions {
  timeWindow?: unknown;
  groupId?: unknown;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A @fastify/rate-limit store counting in a WindowCounter, so that on PostgreSQL every instance
 * counts into the same windows (docs/decisions/0003).
 *
 * The plugin builds one store from the global options and, for each route with its own
 * `config.rateLimit` (registration 30/hour, parcel creation 120/minute), a child from the route's
 * merged options. Each child gets its own key prefix, so a route's counts never mix with the
 * global 600/minute ones or another route's, and its own window: the plugin passes the window with
 * every `incr`, and the child also keeps the one it was built with as a fallback.
 */
export function counterRateLimitStore(counter: WindowCounter): FastifyRateLimitStoreCtor {
  let unnamed = 0;

  class CounterRateLimitStore implements FastifyRateLimitStore {
    private readonly windowMs: number;

    constructor(
      options: LimitOptions,
      private readonly prefix = 'http:',
    ) {
      this.windowMs = typeof options.timeWindow === 'number' ? options.timeWindow : 60_000;
    }

    incr(key: string, callback: IncrCallback, timeWindow?: number): void {
      const windowMs = typeof timeWindow === 'number' ? timeWindow : this.windowMs;
      counter.hit(`${this.prefix}${key}`, windowMs).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: Math.max(0, resetAt - Date.now()) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const options = routeOptions as unknown as LimitOptions;
      const { method, url } = options.routeInfo ?? {};
      let scope: string;
      if (typeof options.groupId === 'string') scope = `group ${options.groupId}`;
      else if (method && url) scope = `${[method].flat().join(',')} ${url}`;
      // app.rateLimit({...}) limiters carry no route: numbered in creation order, the same on every instance.
      else scope = `limiter ${++unnamed}`;
      return new CounterRateLimitStore(options, `http:${scope}:`);
    }
  }

  return CounterRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
