import { join } from 'node:path';
import { type FaultInjector, parseFaults, startPortFaults } from '../../lib/local/faults';
import { type Deployments, newProject, startDeployments, upload } from '../deployments/helpers';
import { tarOfDir } from '../fixtures/tar';
import { TestPlatform } from '../helpers/platform';

/**
 * The outside systems whose local adapter is code of ours, the scheduler and the builds port,
 * failing as AWS fails them: the fault injector wraps their local adapters
 * (shared/ports/local-faults.ts) and throws what the SDK throws once its own retries are spent.
 * A route whose timer can't be set answers the backend-error table's 429 or 502 with
 * Retry-After; a deployment whose build never starts ends `error` at once and answers 502.
 */
let p: TestPlatform;
let env: Deployments;
let faults: FaultInjector;

beforeAll(async () => {
  faults = startPortFaults();
  p = await TestPlatform.start();
  env = await startDeployments({ workers: false });
});

afterAll(async () => {
  await faults?.stop();
  await env?.close();
  await p?.close();
});

afterEach(() => faults.set([]));

const THROTTLED = { error: 'The backend is throttling requests. Try again in a moment.' };
const FAILED = { error: 'The backend request failed. Try again.' };
const START_FAILED = { error: "Couldn't start the build. Try again." };

describe('the scheduler', () => {
  let issues: string;
  beforeAll(async () => {
    issues = `/v1/orgs/${p.org.orgId}/issues`;
    // A service space: each new request starts SLA clocks, whose breach is a scheduler timer.
    const space = await p.post(`${issues}/spaces`, { key: 'HELP', name: 'Help', template: 'service' });
    expect(space.status).toBe(201);
  });
  const newRequest = () =>
    p.post(issues, { space: 'HELP', summary: 'VPN down', requestType: 'Report a system problem' });

  it('throttled: the route answers 429 with Retry-After', async () => {
    faults.set(parseFaults('scheduler:CreateSchedule:throttle'));
    const res = await newRequest();
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([429, THROTTLED, '1']);
    expect(faults.injected['scheduler:CreateSchedule:throttle']).toBeGreaterThanOrEqual(1);
  });

  it('unavailable: the route answers 502 with Retry-After', async () => {
    faults.set(parseFaults('scheduler:*:unavailable'));
    const res = await newRequest();
    expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([502, FAILED, '2']);
  });

  it('timed out: 502, never a hang; and with the scheduler back, the same request succeeds', async () => {
    faults.set(parseFaults('scheduler:*:timeout'));
    const res = await newRequest();
    expect([res.status, res.body]).toEqual([502, FAILED]);
    faults.set([]);
    expect((await newRequest()).status).toBe(201);
  });
});

describe('a build that never starts', () => {
  const archive = tarOfDir(join(__dirname, '..', 'fixtures', 'static-site'));
  const deployments = () => `/v1/orgs/${p.org.orgId}/deployments`;

  it.each([
    ['throttled', 'throttle'],
    ['the account limit', 'account-limit'],
    ['unavailable', 'unavailable'],
  ])(
    '%s: the create answers 502 with Retry-After and the deployment ends `error` with the reason',
    async (_, fault) => {
      const { projectId } = await newProject(p, 'static');
      const uploadId = await upload(p, projectId, archive);
      faults.set(parseFaults(`builds:StartBuild:${fault}`));
      const res = await p.post(`/v1/orgs/${p.org.orgId}/projects/${projectId}/deployments`, {
        source: 'upload',
        uploadId,
        target: 'preview',
      });
      expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([502, START_FAILED, '2']);
      expect(faults.injected[`builds:StartBuild:${fault}`]).toBe(1);
      // Never left `queued`: the list shows it ended, with the reason.
      const list = await p.get(`${deployments()}?projectId=${projectId}`);
      expect(list.body.deployments).toHaveLength(1);
      expect(list.body.deployments[0]).toMatchObject({ status: 'error', error: START_FAILED.error });
    },
  );
});

describe('the port fault rules', () => {
  it('name the scheduler and the builds port; a fault a service has not is refused', () => {
    expect(parseFaults('scheduler:*:unavailable,builds:StartBuild:account-limit:0.05')).toEqual([
      { service: 'scheduler', operation: '*', fault: 'unavailable' },
      { service: 'builds', operation: 'StartBuild', fault: 'account-limit', rate: 0.05 },
    ]);
    expect(() => parseFaults('dynamodb:PutItem:account-limit')).toThrow(/account-limit is for builds only/);
    expect(() => parseFaults('builds:StartBuild:reset-after-write')).toThrow(/is for dynamodb, s3, sqs only/);
  });
});
