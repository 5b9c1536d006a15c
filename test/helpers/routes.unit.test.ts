import { allRoutes, calledRoute, documentedResponse } from './routes';

/**
 * TestPlatform checks each call against the route it reached through the groups' generated route
 * indexes (calledRoute), not every group's routes: both must name the same route and documents.
 */
const concrete = (path: string) =>
  path
    .split('/')
    .map((s) => (s.startsWith(':') ? `x${s.slice(1)}1` : s))
    .join('/');

it('names, for a path of every route, the route allRoutes matches, with its documented responses', () => {
  const { groups, match, responseOf } = allRoutes();
  let checked = 0;
  for (const g of groups) {
    for (const r of g.routes) {
      const path = concrete(r.path);
      const expected = match(r.method, path);
      const called = calledRoute(r.method, path);
      expect([r.method, path, called?.key]).toEqual([
        r.method,
        path,
        expected && `${expected.method} ${expected.path}`,
      ]);
      if (!expected || !called) continue;
      for (const status of [200, 201, 202, 204]) {
        expect([called.key, status, documentedResponse(called, status)]).toEqual([
          called.key,
          status,
          responseOf(expected, status),
        ]);
      }
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(300);
});

it('names no route for a path no group serves', () => {
  expect(calledRoute('GET', '/v1/nothing-here')).toBeUndefined();
  expect(calledRoute('GET', concrete(allRoutes().groups[0]?.routes[0]?.path ?? '/'))).toBeDefined();
});
