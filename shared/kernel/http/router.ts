/** What the router needs of a route: a route, or a route index's entry (shared/kernel/http/route.ts). */
interface Routable {
  method: string;
  segments: string[];
}

export type Match<R extends Routable = Routable> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' }
  /** A segment is not valid percent-encoded UTF-8 (`%zz`, `%E0%A4%A`): no route can be told. */
  | { kind: 'malformed' };

function matchPath(route: Routable, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i] as string;
    const part = parts[i] as string;
    if (seg.startsWith(':')) {
      if (part === '') return undefined;
      params[seg.slice(1)] = part;
    } else if (seg !== part) return undefined;
  }
  return params;
}

/** Literal segments first, then parameters: `/repos/-/available` wins over `/repos/:name`. */
function specificity(route: Routable): string {
  return route.segments.map((s) => (s.startsWith(':') ? '0' : '1')).join('');
}

/** Matches a raw path against the group's routes. Path segments are URL-decoded. */
export function createRouter<R extends Routable>(routes: readonly R[]) {
  const ordered = [...routes].sort((a, b) => (specificity(a) < specificity(b) ? 1 : -1));
  return (method: string, rawPath: string): Match<R> => {
    let parts: string[];
    try {
      parts = rawPath
        .split('/')
        .filter((p, i, all) => p !== '' || (i > 0 && i < all.length - 1))
        .map((p) => decodeURIComponent(p));
    } catch {
      return { kind: 'malformed' };
    }
    const allow = new Set<string>();
    let best: { route: R; params: Record<string, string> } | undefined;
    let pathSpec: string | undefined;
    for (const route of ordered) {
      const params = matchPath(route, parts);
      if (!params) continue;
      const spec = specificity(route);
      if (pathSpec !== undefined && spec !== pathSpec) continue;
      pathSpec = spec;
      allow.add(route.method);
      if (route.method === method && !best) best = { route, params };
    }
    if (best) return { kind: 'found', ...best };
    if (allow.size > 0) return { kind: 'method', allow: [...allow].sort() };
    return { kind: 'none' };
  };
}
