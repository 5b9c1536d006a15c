import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { dataDir, localPaths, tenantRoot } from '../../shared/kernel/tenancy/paths';
import { isolating } from '../../shared/kernel/tenancy/sandbox';
import { type Deployments, deploy, edgeFetch, newProject, waitFinal, withDeployments } from '../deployments/helpers';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';

/**
 * Tenant code against the platform's machine: a real node app (test/fixtures/isolation-probe)
 * deployed as a server function, and the same probe run as a build command, each trying to read
 * the platform's keys and files, another deployment's variables and folders, and the platform's
 * environment, and reporting what it got. When the platform runs as root (CI does), every attempt
 * is refused; otherwise tenant code runs as the platform's user, as docs/local-platform.md says, and only the
 * environment and folder rules hold.
 */
let p: TestPlatform;
let env: Deployments;
const probe = tarOfDir(join(__dirname, '..', 'fixtures', 'isolation-probe'));
const PLATFORM_VARS = ['CURSOR_SECRET', 'LOCAL_SECRETS_KEY', 'AWS_SECRET_ACCESS_KEY', 'IDP_KEY_FILE', 'TABLE_NAME'];
const markerOther = `other-${randomBytes(8).toString('hex')}`;
const markerOwn = `own-${randomBytes(8).toString('hex')}`;

interface Report {
  requests: Record<string, string>;
  uid: number;
  reads: Record<string, string>;
  lists: Record<string, string>;
  platformVars: string[];
  ownVar: string | null;
  foreignMarkerSeen: boolean;
}

let other: { deploymentId: string; host: string };
let spec: Record<string, unknown>;

async function setVar(projectId: string, key: string, value: string) {
  const res = await p.post(`/v1/orgs/${p.org.orgId}/projects/${projectId}/env`, {
    vars: [{ key, value }],
    targets: ['preview', 'production'],
    sensitive: true,
  });
  expect(res.status).toBe(200);
}

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

beforeAll(async () => {
  // Another tenant's running server function, with a variable of its own.
  const { projectId: otherProject } = await newProject(p, 'node');
  await setVar(otherProject, 'MARKER', markerOther);
  other = await deploy(p, otherProject, probe);
  expect((await waitFinal(p, other.deploymentId)).deployment.status).toBe('ready');
  expect((await edgeFetch(env.edge, other.host, '/')).status).toBe(200);
  spec = {
    read: [
      process.env.IDP_KEY_FILE as string,
      join(localPaths.function(other.deploymentId), 'function.json'),
      join(localPaths.app(other.deploymentId), 'probe.js'),
    ],
    list: [dataDir(), join(tenantRoot(), 'functions'), join(tenantRoot(), 'builds')],
    platformVars: PLATFORM_VARS,
    // The engines, unsigned: each answers its refusal, never data.
    requests: [
      {
        url: process.env.DYNAMODB_SIGNED_ENDPOINT,
        method: 'POST',
        headers: { 'x-amz-target': 'DynamoDB_20120810.ListTables', 'content-type': 'application/x-amz-json-1.0' },
        body: '{}',
      },
      { url: `${process.env.AWS_ENDPOINT_URL_S3}/`, method: 'GET' },
    ],
    ownVar: 'MARKER',
    foreignMarkerReversed: [...markerOther].reverse().join(''),
  };
}, 120_000);

function expectIsolated(report: Report) {
  expect(report.platformVars).toEqual([]);
  expect(Object.values(report.requests)).toEqual(['400 MissingAuthenticationTokenException', '403 AccessDenied']);
  expect(report.foreignMarkerSeen).toBe(false);
  if (!isolating()) return;
  expect(report.uid).toBeGreaterThanOrEqual(200_000);
  for (const [path, got] of Object.entries({ ...report.reads, ...report.lists })) {
    expect({ path, got }).toEqual({ path, got: 'EACCES' });
  }
}

it('a server function reads none of the platform and nothing of another tenant', async () => {
  const { projectId } = await newProject(p, 'node');
  await setVar(projectId, 'MARKER', markerOwn);
  const mine = await deploy(p, projectId, probe);
  expect((await waitFinal(p, mine.deploymentId)).deployment.status).toBe('ready');
  const res = await edgeFetch(env.edge, mine.host, `/probe?spec=${encodeURIComponent(JSON.stringify(spec))}`);
  expect(res.status).toBe(200);
  const report = JSON.parse(res.text) as Report;
  // Its own variable reaches it, and only its own.
  expect(report.ownVar).toBe(markerOwn);
  expectIsolated(report);
});

it('a build command reads none of the platform and nothing of another tenant', async () => {
  const { projectId } = await newProject(p, 'static', { buildCommand: 'node probe.js build', outputDirectory: 'out' });
  await setVar(projectId, 'MARKER', markerOwn);
  await setVar(projectId, 'PROBE_SPEC', JSON.stringify(spec));
  const built = await deploy(p, projectId, probe);
  expect((await waitFinal(p, built.deploymentId)).deployment.status).toBe('ready');
  const res = await edgeFetch(env.edge, built.host, '/report.json');
  expect(res.status).toBe(200);
  const report = JSON.parse(res.text) as Report;
  expect(report.ownVar).toBe(markerOwn);
  expectIsolated(report);
});

it('tenant folders are outside DATA_DIR', () => {
  expect(localPaths.work(other.deploymentId).startsWith(`${dataDir()}/`)).toBe(false);
  expect(localPaths.app(other.deploymentId).startsWith(`${dataDir()}/`)).toBe(false);
});
