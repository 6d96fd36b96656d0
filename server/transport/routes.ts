import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { HttpMethod, Meta } from '../trpc/meta.ts';

/** One REST route: the binding of one procedure, derived from its meta. The single table both the mount and the docs read. */
export interface RestRoute {
  method: HttpMethod;
  /** Spec style, relative to /api/v1, e.g. `/admin/clock-status/{badge}`. */
  path: string;
  /** Path as served: under /api/v1, or at the root for `rest.root` routes. */
  fullPath: string;
  /** uWS patterns, e.g. `/api/v1/admin/clock-status/:badge`, then any root aliases. */
  patterns: string[];
  params: string[];
  /** Per param, the literal text after it in its segment (`{type}.png` → `.png`), '' for most. */
  paramSuffixes: string[];
  procedurePath: string;
  type: 'query' | 'mutation';
  meta: Meta;
  procedure: AnyProcedure;
}

export const API_PREFIX = '/api/v1';

export function restRoutes(appRouter: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  const seen = new Set<string>();
  for (const [procedurePath, procedure] of Object.entries(appRouter._def.procedures as Record<string, AnyProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (!meta?.rest) continue;
    const type = procedure._def.type;
    if (type === 'subscription') throw new Error(`${procedurePath}: subscriptions have no REST binding`);
    const { method, path } = meta.rest;
    if ((method === 'GET') !== (type === 'query')) throw new Error(`${procedurePath}: GET must be a query and only a query`);
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    // uWS matches whole segments: `{type}.png` is served as `:type`, and the REST door checks and strips `.png`.
    const paramSuffixes = [...path.matchAll(/\{\w+\}([^/]*)/g)].map((m) => m[1]);
    const key = `${method} ${path.replace(/\{\w+\}/g, '{}')}`;
    if (seen.has(key)) throw new Error(`duplicate REST route ${key}`);
    seen.add(key);
    routes.push({
      method, path, params, paramSuffixes, procedurePath, type, meta, procedure,
      fullPath: meta.rest.root ? path : API_PREFIX + path,
      patterns: [meta.rest.root ? path : API_PREFIX + path, ...(meta.rest.aliases ?? [])].map((p) => p.replace(/\{(\w+)\}[^/]*/g, ':$1')),
    });
  }
  return routes;
}
