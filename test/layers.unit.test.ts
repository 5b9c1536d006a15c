import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The folder rules of the design, held over the import graph (static imports, `export … from`,
 * `import()` and `require()` of string literals). `shared/` has three wings:
 * - `shared/kernel/`: the machinery every request runs (http, auth, store, ground, net, events,
 *   config, identity, audit, plans, tenancy);
 * - `shared/ports/<name>/`: one outside system each (`port.ts`, `aws.ts`, `local.ts`, `index.ts`);
 * - `shared/domains/<product>/`: the rules of each product.
 *
 * The rules:
 * - a route group (`functions/<group>`) never imports another group, and keeps HTTP: it calls a
 *   domain and never builds a table call itself;
 * - `shared/` never imports `functions/` or `lib/`, and nothing in either imports `lib/local/`;
 * - the kernel never imports a product's rules (`shared/domains/`);
 * - a port never imports a product's rules at run time (a type, or one of the few values listed in
 *   PORT_READS_DOMAIN with its reason), and writes no platform record (it imports none of the
 *   store's writes, `shared/kernel/store/ops` and `commands`: a local engine's own state goes
 *   through the client);
 * - `config.target` is read only by `definePort` (shared/ports/adapter.ts) and a port's index.ts;
 * - only the store (`shared/kernel/store/`, the platform's table) and the ports import `@aws-sdk`:
 *   domains and routes build their table calls with the store's commands, and reach every other
 *   AWS service through its port;
 * - the environment is read only in `shared/kernel/ground/env.ts` (`readEnv`, `requireEnv`) and the
 *   settings `shared/kernel/config.ts` reads once: no other
 *   file of `shared/` or `functions/` touches `process.env` (text of a program the platform writes
 *   out, such as the build script, is not code of ours and may);
 * - the ground floor (`shared/kernel/ground/`: errors, logging) imports nothing of the project,
 *   and the floors below HTTP (the store, the workers) never import `shared/kernel/http/`;
 * - no import cycle, anywhere, among the imports evaluated when a module loads (a type-only import
 *   is erased; an `import()` is a lazy boundary, loaded on first use), and none at all in bin, lib,
 *   functions, shared, cli and agent when type-only imports and `import()` count too;
 * - a product imports another only along PRODUCT_IMPORTS (the products in layers, each edge with its
 *   reason), and a dynamic import inside shared/domains is listed with its reason.
 */

const root = resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx|cts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Edge {
  to: string;
  /** `import type …` / `export type … from`: erased when compiled. */
  typeOnly: boolean;
  /** `import('…')`: loaded on first use, after both modules are evaluated (the lazy boundaries). */
  dynamic: boolean;
}

const edgeCache = new Map<string, Edge[]>();
/** Every project-relative import of `file`, as a path from the repository root. */
function edgesOf(file: string): Edge[] {
  const known = edgeCache.get(file);
  if (known) return known;
  const text = readFileSync(join(root, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const edges = info.importedFiles
    .filter((f) => f.fileName.startsWith('.'))
    .map((f) => {
      // The statement the specifier ends: `import type {…} from '…'` or `export type {…} from '…'`.
      const start = Math.max(text.lastIndexOf('import ', f.pos), text.lastIndexOf('export ', f.pos));
      const statement = start >= 0 ? text.slice(start, f.pos) : '';
      return {
        to: relative(root, resolve(root, dirname(file), f.fileName)),
        typeOnly: /^(import|export)\s+type\s/.test(statement),
        dynamic: /import\s*\(\s*$/.test(text.slice(Math.max(0, f.pos - 20), f.pos)),
      };
    });
  edgeCache.set(file, edges);
  return edges;
}
const importsOf = (file: string) => edgesOf(file).map((e) => e.to);

const groupOf = (path: string) => /^functions\/([^/]+)\//.exec(path)?.[1];
const wingOf = (path: string) => /^shared\/(kernel|ports|domains)\//.exec(path)?.[1];

function violations(files: string[], rule: Rule): string[] {
  return files.flatMap((from) =>
    edgesOf(from).flatMap((edge) => {
      const why = rule(from, edge.to, edge.typeOnly);
      return why ? [`${from} → ${edge.to}: ${why}`] : [];
    }),
  );
}

const functions = sources('functions');
const shared = sources('shared');

test('the import graph is read (a rule over no edges would pass for nothing)', () => {
  expect(functions.length).toBeGreaterThan(20);
  expect(shared.length).toBeGreaterThan(20);
  expect(importsOf('functions/core/handler.ts')).toContain('shared/kernel/http/handler');
});

test('shared/ holds the three wings and nothing else', () => {
  expect(readdirSync(join(root, 'shared')).sort()).toEqual(['domains', 'kernel', 'ports']);
});

/**
 * Values a port takes from a product today, each with its reason; the list only shrinks.
 * (Types are free: they describe what crosses the port and are erased.)
 */
const PORT_READS_DOMAIN: Record<string, string> = {
  'shared/ports/builds/local.ts → shared/domains/deployments/schema': 'the in-progress statuses',
  'shared/ports/runtime/aws.ts → shared/domains/resources/links': "a function's linked resources' variables",
};

/** The table's door (commands, client, multi-item operations) and the customer tables' door. */
const TABLE_DOORS = /^shared\/(kernel\/store\/(commands|client|ops)|ports\/customer-tables\/(commands|client))$/;

type Rule = (from: string, to: string, typeOnly: boolean) => string | undefined;

const rules: { name: string; files: string[]; rule: Rule; bad: [string, string] }[] = [
  {
    name: 'a route group never imports another group',
    files: functions,
    rule: (from, to) => (to.startsWith('functions/') && groupOf(to) !== groupOf(from) ? 'another group' : undefined),
    bad: ['functions/orgs/routes.ts', 'functions/projects/read'],
  },
  {
    name: 'a route group keeps HTTP: it calls a domain, never builds a table call itself',
    files: functions,
    rule: (_from, to, typeOnly) =>
      TABLE_DOORS.test(to) && !typeOnly
        ? "the group holds a product's rule: move it into shared/domains/<product>/"
        : undefined,
    bad: ['functions/projects/routes.ts', 'shared/kernel/store/commands'],
  },
  {
    name: 'shared/ never imports functions/ or lib/',
    files: shared,
    rule: (_from, to) => (/^(functions|lib)\//.test(to) ? 'shared code depends on a group or on wiring' : undefined),
    bad: ['shared/kernel/store/table.ts', 'lib/route-groups'],
  },
  {
    name: 'nothing in functions/ or shared/ imports lib/local/',
    files: [...functions, ...shared],
    rule: (_from, to) => (to.startsWith('lib/local') ? 'the local platform stays out of what AWS runs' : undefined),
    bad: ['functions/deployments/create.ts', 'lib/local/edge'],
  },
  {
    name: 'the kernel never imports a product',
    files: shared.filter((f) => wingOf(f) === 'kernel'),
    rule: (_from, to) => (wingOf(to) === 'domains' ? 'the machinery depends on a product' : undefined),
    bad: ['shared/kernel/http/handler.ts', 'shared/domains/projects/records'],
  },
  {
    name: 'a port takes no product rule at run time',
    files: shared.filter((f) => wingOf(f) === 'ports'),
    rule: (from, to, typeOnly) =>
      wingOf(to) === 'domains' && !typeOnly && !PORT_READS_DOMAIN[`${from} → ${to}`]
        ? 'an outside system depends on a product'
        : undefined,
    bad: ['shared/ports/git/local.ts', 'shared/domains/repos/pulls'],
  },
  {
    name: "a port writes no platform record: it imports none of the store's writes",
    files: shared.filter((f) => wingOf(f) === 'ports'),
    rule: (_from, to) =>
      /^shared\/kernel\/store\/(ops|commands)$/.test(to)
        ? "what the platform keeps is a product's record (shared/domains/<product>/), not an adapter's"
        : undefined,
    bad: ['shared/ports/object-storage/records.ts', 'shared/kernel/store/ops'],
  },
  {
    name: 'the ground floor stands on nothing of the project',
    files: shared.filter((f) => f.startsWith('shared/kernel/ground/')),
    rule: (from, to) => (!to.startsWith(dirname(from)) ? 'the ground floor imports an upper floor' : undefined),
    bad: ['shared/kernel/ground/errors.ts', 'shared/kernel/http/handler'],
  },
  {
    name: 'the store and the workers never import shared/kernel/http/',
    files: [
      ...shared.filter((f) => f.startsWith('shared/kernel/store/')),
      ...functions.filter((f) => groupOf(f) === 'workers'),
    ],
    rule: (_from, to) =>
      to.startsWith('shared/kernel/http/') ? 'errors and logging are on the ground floor' : undefined,
    bad: ['shared/kernel/store/table.ts', 'shared/kernel/http/errors'],
  },
  {
    name: 'below HTTP, errors are by meaning: only the http layer and the route groups choose a status',
    files: shared.filter((f) => !f.startsWith('shared/kernel/http/')),
    rule: (_from, to) =>
      to.startsWith('shared/kernel/http/http-error')
        ? 'throw a DomainError of shared/kernel/ground/errors.ts (its kind), not an HttpError'
        : undefined,
    bad: ['shared/domains/repos/records.ts', 'shared/kernel/http/http-error.ts'],
  },
  {
    name: 'the agent program stands alone (it runs on a device, against the API only)',
    files: sources('agent'),
    rule: (_from, to) => (!to.startsWith('agent/') ? 'the agent program imports platform code' : undefined),
    bad: ['agent/main.ts', 'shared/domains/agents/jobs'],
  },
];

test('every listed port exception is still an import (the list only shrinks)', () => {
  const edges = new Set(
    shared.filter((f) => wingOf(f) === 'ports').flatMap((f) => edgesOf(f).map((e) => `${f} → ${e.to}`)),
  );
  expect(Object.keys(PORT_READS_DOMAIN).filter((k) => !edges.has(k))).toEqual([]);
});

/**
 * A target switch belongs to the ports: `definePort` (shared/ports/adapter.ts, the one place that
 * picks an adapter) and a port's index.ts (what differs by target beside its adapter), nowhere else.
 */
const switchesTarget = (file: string, text: string) =>
  /\bconfig\.target\b/.test(text) &&
  !/^shared\/ports\/([^/]+\/index|adapter)\.ts$/.test(file) &&
  file !== 'shared/kernel/config.ts';

/** A node of code (not string or template text) that reads `process.env`, searched depth first. */
const touchesEnvironment = (node: ts.Node): boolean =>
  (ts.isPropertyAccessExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'process' &&
    node.name.text === 'env') ||
  (ts.forEachChild(node, touchesEnvironment) ?? false);

/** The environment is read in `shared/kernel/ground/env.ts` and the settings of config.ts, nowhere else. */
const readsEnvironment = (file: string, text: string) =>
  file !== 'shared/kernel/config.ts' &&
  file !== 'shared/kernel/ground/env.ts' &&
  touchesEnvironment(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));

/** The SDK is named by the store (the platform's table) and the ports (outside systems) only. */
const namesTheSdk = (file: string, text: string) =>
  !/^shared\/(kernel\/store|ports\/[^/]+)\//.test(file) &&
  ts.preProcessFile(text, true, true).importedFiles.some((f) => f.fileName.startsWith('@aws-sdk/'));

/** Rules over each file's text, held over functions/ and shared/, each with files it must catch and let through. */
const textRules: {
  name: string;
  finds: (file: string, text: string) => boolean;
  caught: string[][];
  allowed: string[][];
}[] = [
  {
    name: 'no config.target switch outside definePort and a port’s index.ts',
    finds: switchesTarget,
    caught: [
      ['functions/workers/usage.ts', "config.target === 'aws'"],
      ['shared/kernel/http/handler.ts', "config.target === 'aws'"],
    ],
    allowed: [
      ['shared/ports/adapter.ts', "config.target === 'local'"],
      ['shared/ports/dns/index.ts', "config.target === 'local'"],
    ],
  },
  {
    name: 'only the store and the ports import @aws-sdk',
    finds: namesTheSdk,
    caught: [
      ['shared/domains/projects/records.ts', "import { QueryCommand } from '@aws-sdk/lib-dynamodb';"],
      ['functions/databases/pages.ts', "export { ScanCommand } from '@aws-sdk/client-dynamodb';"],
      ['shared/kernel/audit/audit.ts', "const s3 = await import('@aws-sdk/client-s3');"],
    ],
    allowed: [
      ['shared/kernel/store/commands.ts', "export { PutCommand } from '@aws-sdk/lib-dynamodb';"],
      ['shared/ports/queue/aws.ts', "import { SQSClient } from '@aws-sdk/client-sqs';"],
      ['shared/domains/projects/records.ts', "import { PutCommand } from '../../kernel/store/commands';"],
    ],
  },
  {
    name: 'the environment is read in one place',
    finds: readsEnvironment,
    caught: [
      ['shared/domains/x.ts', "const a = process.env.APPS_DOMAIN ?? 'x';"],
      ['functions/x/routes.ts', 'const { A } = process.env;'],
    ],
    allowed: [
      ['shared/ports/builds/buildspec.ts', 'export const S = String.raw`const E = process.env;`;'],
      ['shared/kernel/config.ts', 'export const readEnv = (n: string) => process.env[n];'],
    ],
  },
];

describe.each(textRules)('$name', ({ finds, caught, allowed }) => {
  test('holds over functions/ and shared/', () => {
    expect([...functions, ...shared].filter((f) => finds(f, readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });
  test('catches a violation, and lets its own place through', () => {
    for (const [file, text] of caught) expect([file, finds(file as string, text as string)]).toEqual([file, true]);
    for (const [file, text] of allowed) expect([file, finds(file as string, text as string)]).toEqual([file, false]);
  });
});

describe.each(rules)('$name', ({ files, rule, bad }) => {
  test('holds over the import graph', () => {
    expect(violations(files, rule)).toEqual([]);
  });
  test('catches a violation', () => {
    expect(rule(bad[0], bad[1], false)).toBeDefined();
  });
});

/** The file an import names (`x` → `x.ts` or `x/index.ts`), if it is one of ours. */
function fileOf(path: string): string | undefined {
  for (const p of [path, `${path}.ts`, `${path}/index.ts`]) {
    if (/\.ts$/.test(p) && existsSync(join(root, p)) && statSync(join(root, p)).isFile()) return p;
  }
  return undefined;
}

/**
 * Each file's imports evaluated when it loads, as files. A type-only import is erased; an
 * `import()` is a lazy boundary (how a function keeps code out of its start), loaded after both
 * modules are evaluated, so it can't see a module half-made: neither makes a load-time cycle.
 */
function graphOf(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    graph.set(
      f,
      edgesOf(f)
        .filter((e) => !e.typeOnly && !e.dynamic)
        .map((e) => fileOf(e.to))
        .filter((t): t is string => t !== undefined),
    );
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iteratively.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (indexOf.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indexOf.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    for (let top = work.at(-1); top !== undefined; top = work.at(-1)) {
      const targets = graph.get(top.node) ?? [];
      if (top.next < targets.length) {
        const t = targets[top.next++] as string;
        if (!graph.has(t)) continue;
        if (!indexOf.has(t)) {
          indexOf.set(t, index);
          low.set(t, index++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, next: 0 });
        } else if (onStack.has(t)) {
          low.set(top.node, Math.min(low.get(top.node) as number, indexOf.get(t) as number));
        }
        continue;
      }
      work.pop();
      const below = work.at(-1);
      if (below) {
        const parent = below.node;
        low.set(parent, Math.min(low.get(parent) as number, low.get(top.node) as number));
      }
      if (low.get(top.node) === indexOf.get(top.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop() as string;
          onStack.delete(n);
          component.push(n);
        } while (n !== top.node);
        if (component.length > 1 || (graph.get(top.node) ?? []).includes(top.node)) found.push(component.sort());
      }
    }
  }
  return found;
}

describe('no import cycle', () => {
  const everything = ['bin', 'lib', 'functions', 'shared', 'cli', 'client', 'agent', 'scripts'].flatMap(sources);
  test('holds over the whole code base', () => {
    expect(cycles(graphOf(everything))).toEqual([]);
  });
  test('catches one, and a file importing itself', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['e.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });
  test('reads type-only imports as erased, and import() as lazy', () => {
    const edges = edgesOf('shared/kernel/http/middleware/idempotency.ts');
    expect(edges.some((e) => e.typeOnly)).toBe(true);
    expect(edges.some((e) => !e.typeOnly && !e.dynamic)).toBe(true);
    expect(edges.some((e) => e.to === 'shared/kernel/http/idempotency' && e.dynamic)).toBe(true);
  });
});

/**
 * A route group is HTTP only: it maps a request to a use case of shared/domains/<product>/ and
 * back, so it takes no port's value (an outside system is the domain's business; types are free)
 * and stays short. functions/workers and functions/git are not route groups. Today's offenders,
 * each pending its own move into a domain; the lists only shrink.
 */
describe('a route group takes no port value and stays under 300 lines', () => {
  const MAX_LINES = 300;
  const PORT_VALUES_PENDING: Record<string, string> = {};
  const LONG_PENDING: Record<string, string> = {};
  const routeFiles = functions.filter((f) => !['workers', 'git'].includes(groupOf(f) ?? ''));
  const lineCount = (file: string) => readFileSync(join(root, file), 'utf8').split('\n').length - 1;
  const takesPortValue: Rule = (_from, to, typeOnly) =>
    to.startsWith('shared/ports/') && !typeOnly ? 'a route group holds an outside system: call a use case' : undefined;
  const portValues = (files: string[]) =>
    files.flatMap((from) =>
      edgesOf(from).flatMap((e) => (takesPortValue(from, e.to, e.typeOnly) ? [`${from} → ${e.to}`] : [])),
    );

  test('holds over functions/<group>/ (workers and git aside)', () => {
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(portValues(routeFiles).filter((edge) => !PORT_VALUES_PENDING[edge])).toEqual([]);
    expect(routeFiles.filter((f) => lineCount(f) > MAX_LINES && !LONG_PENDING[f])).toEqual([]);
  });
  test('every pending entry is still an offender (the lists only shrink)', () => {
    const now = new Set(portValues(routeFiles));
    expect(Object.keys(PORT_VALUES_PENDING).filter((edge) => !now.has(edge))).toEqual([]);
    expect(Object.keys(LONG_PENDING).filter((f) => lineCount(f) <= MAX_LINES)).toEqual([]);
  });
  test('catches a port value, and lets a type through', () => {
    expect(takesPortValue('functions/pulls/routes.ts', 'shared/ports/git', false)).toBeDefined();
    expect(takesPortValue('functions/pulls/routes.ts', 'shared/ports/git', true)).toBeUndefined();
    expect(takesPortValue('functions/pulls/routes.ts', 'shared/domains/repos/pulls/merge', false)).toBeUndefined();
  });
});

/**
 * The products in layers: which product (`shared/domains/<a>`) may import which (`shared/domains/<b>`),
 * each edge with its reason. Read top down: a product imports only products listed after it (the
 * table is acyclic, and the test holds it); types count as imports too.
 */
const PRODUCT_IMPORTS: Record<string, Record<string, string>> = {
  dav: {
    calendar: 'CalDAV serves a mailbox’s calendars and events (the same records, their iCalendar, their invitations)',
    contacts: 'CardDAV serves a mailbox’s address books and contacts (the same records, their vCards)',
    mail: 'calendars and address books belong to mailboxes; a contact’s photo is a mail object',
  },
  serving: {
    hosts: 'the router and the status pages find the deployment a host names',
    deployments: 'a status page shows a deployment’s status',
  },
  tracker: {
    mail: 'a space’s export and import carry attachments as mail objects',
    notifications: 'issue events and SLA breaches are notifications',
    repos: 'people are a repository’s people (who may be assigned)',
  },
  calendar: { mail: 'a calendar belongs to a mailbox; invitations are sent and received as mail' },
  contacts: { mail: 'an address book belongs to a mailbox; photos and exports are mail objects' },
  agents: { notifications: 'a job’s end is a notification' },
  buckets: { resources: 'a bucket is a resource (its record, schema and settings record)' },
  mail: {
    'custom-domains': 'a mail domain is claimed as a custom domain is (one owner per name)',
    insights: 'received mail is counted in the organization’s analytics',
    notifications: 'mail from a VIP sender is a notification',
    'platform-admin': 'the operators’ mail usage pages the organizations as their other lists do',
  },
  hosts: {
    'custom-domains': 'a host may be a custom domain',
    deployments: 'a host resolves to a deployment',
    projects: 'a host resolves to a project’s production or preview',
    'host-registry': 'resolving reads a host’s registry item; the migration reserves the hosts of older projects',
  },
  'custom-domains': {
    projects: 'a custom domain belongs to a project',
    notifications: 'a domain check’s outcome is a notification',
    'host-registry': 'a verified domain claims its host in the registry (one owner per name)',
  },
  deployments: {
    projects: 'a deployment belongs to a project (its records, variables, hosts)',
    repos: 'a deployment builds a repository’s commit (LFS objects, pulls, checks)',
    resources: 'a deployment’s variables come from its project’s linked resources',
    notifications: 'a deployment’s end and a preview are notifications',
    'platform-admin': 'a deployment runs in a region the operators keep',
    'host-registry': 'a deployment’s and a preview’s hosts are claimed in the registry',
  },
  repos: {
    projects: 'a repository may belong to a project',
    resources: 'a repository is a resource',
    connectors: 'an import reads with a connector’s credentials',
    notifications: 'checks and issue events are notifications',
    'platform-admin': 'a repository is created in a region the operators keep',
  },
  databases: { resources: 'a database is a resource (its record, key schema and status)' },
  resources: { projects: 'a resource may be linked to a project' },
  projects: {
    'platform-admin': 'a project is placed in a location the operators keep',
    'signin-clients': 'a project’s deletion removes its sign-in clients',
    'host-registry': 'a project’s production host is reserved, renamed, moved and released in the registry',
  },
  'host-registry': {},
  'platform-admin': {},
  webhooks: { notifications: 'a webhook endpoint subscribes to notification kinds' },
  notifications: {},
  connectors: {},
  insights: {},
  'signin-clients': {},
  pages: {},
};

/**
 * Imports that still run back up the table, file by file, each with what is left to do: the list
 * only shrinks (the test fails on an entry that is no longer an import).
 */
const BACK_ARROWS: Record<string, string> = {
  'shared/domains/projects/deployments.ts → shared/domains/deployments/schema':
    'the deployment record’s type: the deployment’s record and statuses below projects',
  'shared/domains/projects/read.ts → shared/domains/deployments/schema': 'as above',
  'shared/domains/projects/record-schemas.ts → shared/domains/deployments/record-schemas':
    'a project answers its latest and production deployments: as above',
  'shared/domains/repos/pulls/create.ts → shared/domains/deployments/preview-builds':
    'a pull request’s use cases start, show and retire its preview: a previews hook handed in by the route or an event',
  'shared/domains/repos/pulls/merge.ts → shared/domains/deployments/preview-builds': 'as above',
  'shared/domains/repos/pulls/read.ts → shared/domains/deployments/preview-builds': 'as above',
  'shared/domains/repos/pulls/read.ts → shared/domains/deployments/previews': 'as above',
  'shared/domains/repos/pulls/settle.ts → shared/domains/deployments/preview-builds': 'as above',
  'shared/domains/repos/pulls/update.ts → shared/domains/deployments/preview-builds': 'as above',
};

const productOf = (path: string) => /^shared\/domains\/([^/]+)/.exec(path)?.[1];

/** Why `from` → `to` breaks the products' layers, or undefined when the table (or the back arrows) allows it. */
const productRule = (from: string, to: string, table = PRODUCT_IMPORTS): string | undefined => {
  const [a, b] = [productOf(from), productOf(to)];
  if (!a || !b || a === b || table[a]?.[b] || BACK_ARROWS[`${from} → ${to}`]) return undefined;
  return `${a} may not import ${b} (test/layers.unit.test.ts, PRODUCT_IMPORTS)`;
};

/** The products' table as a graph, for its cycles. */
const productGraph = (table: Record<string, Record<string, string>>) =>
  new Map(Object.entries(table).map(([a, bs]) => [a, Object.keys(bs)]));

/** Dynamic imports left inside shared/domains, each with its reason (a cold start, never a cycle). */
const DOMAIN_LAZY_IMPORTS: Record<string, string> = {
  'shared/domains/connectors/mcp.ts → shared/domains/connectors/sdk': 'the MCP SDK loads with the first connection',
  'shared/domains/connectors/oauth.ts → shared/domains/connectors/sdk': 'as above, with the first sign-in',
  'shared/domains/contacts/transfer.ts → shared/domains/contacts/vcard-in':
    'the vCard reader (ical.js) loads with the first import',
  'shared/domains/mail/domains.ts → shared/domains/custom-domains/suffix':
    'the Public Suffix List loads with the first mail domain added, out of the mail group’s cold start',
  'shared/domains/repos/records.ts → shared/domains/repos/templates':
    'the first commit’s texts (a license is 11 KB) load when asked for',
  'shared/domains/tracker/issues.ts → shared/domains/tracker/sla':
    'Temporal loads with the first service-space issue, not with every tracker request',
  'shared/domains/tracker/sla.ts → shared/domains/tracker/jql': 'the JQL parser loads with the first goal query',
  'shared/domains/tracker/sla.ts → shared/domains/tracker/jql-context': 'as above',
  'shared/domains/tracker/spaces.ts → shared/domains/tracker/jql':
    'the JQL parser loads with the first goal query checked',
  'shared/domains/tracker/spaces.ts → shared/domains/tracker/jql-context': 'as above',
};

describe('the products in layers', () => {
  const domains = shared.filter((f) => wingOf(f) === 'domains');
  test('the table names every product once, and is acyclic', () => {
    expect(Object.keys(PRODUCT_IMPORTS).sort()).toEqual(readdirSync(join(root, 'shared/domains')).sort());
    expect(cycles(productGraph(PRODUCT_IMPORTS))).toEqual([]);
  });
  test('every import of a product by another is in the table (type-only and import() included)', () => {
    expect(violations(domains, (from, to) => productRule(from, to))).toEqual([]);
  });
  test('every edge of the table and every back arrow is still an import (the lists only shrink)', () => {
    const edges = domains.flatMap((f) => edgesOf(f).map((e) => [f, e.to] as const));
    const used = new Set(edges.map(([f, t]) => `${productOf(f)} → ${productOf(t)}`));
    const unused = Object.entries(PRODUCT_IMPORTS).flatMap(([a, bs]) =>
      Object.keys(bs)
        .filter((b) => !used.has(`${a} → ${b}`))
        .map((b) => `${a} → ${b}`),
    );
    expect(unused).toEqual([]);
    const files = new Set(edges.map(([f, t]) => `${f} → ${t}`));
    expect(Object.keys(BACK_ARROWS).filter((k) => !files.has(k))).toEqual([]);
  });
  test('catches an import the table does not hold, and a table with a cycle', () => {
    expect(productRule('shared/domains/mail/deliver.ts', 'shared/domains/calendar/itip')).toBeDefined();
    expect(productRule('shared/domains/calendar/itip.ts', 'shared/domains/mail/records')).toBeUndefined();
    const looped = { ...PRODUCT_IMPORTS, mail: { ...PRODUCT_IMPORTS.mail, calendar: 'invitations' } };
    expect(cycles(productGraph(looped))).toEqual([['calendar', 'mail']]);
  });
  test('a dynamic import inside shared/domains is listed with its reason', () => {
    const lazy = domains.flatMap((f) =>
      edgesOf(f)
        .filter((e) => e.dynamic)
        .map((e) => `${f} → ${e.to}`),
    );
    expect(lazy.filter((k) => !DOMAIN_LAZY_IMPORTS[k]).sort()).toEqual([]);
    expect(Object.keys(DOMAIN_LAZY_IMPORTS).filter((k) => !lazy.includes(k))).toEqual([]);
  });
});

/** Every import as an edge of the graph, type-only and import() included (what madge counts). */
function fullGraphOf(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((f) => [
      f,
      edgesOf(f)
        .map((e) => fileOf(e.to))
        .filter((t): t is string => t !== undefined),
    ]),
  );
}

describe('no import cycle at all (type-only and import() included)', () => {
  const code = ['bin', 'lib', 'functions', 'shared', 'cli', 'agent'].flatMap(sources);
  test('holds over bin, lib, functions, shared, cli and agent', () => {
    expect(cycles(fullGraphOf(code))).toEqual([]);
  });
  test('counts a type-only import and an import() as edges, and catches the cycle they close', () => {
    const limits = 'shared/kernel/plans/plan-limits.ts';
    const graph = fullGraphOf([limits, 'shared/kernel/plans/plans.ts']);
    // plan-limits.ts takes plans.ts's types and loads it with its first refresh: both are edges here …
    expect(
      edgesOf(limits)
        .filter((e) => e.to === 'shared/kernel/plans/plans')
        .map((e) => e.typeOnly || e.dynamic),
    ).toEqual([true, true]);
    expect(graph.get(limits)).toContain('shared/kernel/plans/plans.ts');
    // … so plans.ts importing plan-limits.ts back (as it did) is a cycle.
    graph.set('shared/kernel/plans/plans.ts', [limits]);
    expect(cycles(graph)).toEqual([[limits, 'shared/kernel/plans/plans.ts']]);
  });
});
