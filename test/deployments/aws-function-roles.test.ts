import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateFunctionCommand, DeleteFunctionCommand, GetFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { verifyHeaderSignature } from '../../lib/local/sigv4';
import { projectLinkKey, resourceKey } from '../../shared/domains/resources/records';
import { newId } from '../../shared/kernel/store/ids';
import { awsRuntime } from '../../shared/ports/runtime/aws';
import { putRecord } from '../helpers/records';

/**
 * Each server function gets a role of its own (shared/ports/runtime/aws.ts): its log group, and the
 * project's linked table and bucket, read from the project's links, nothing else; created under
 * the stack's permissions boundary and removed with the function. Lambda through
 * aws-sdk-client-mock; IAM through a stand-in that checks each call's SigV4 signature.
 */
const lambda = mockClient(LambdaClient);
const BOUNDARY = 'arn:aws:iam::123456789012:policy/PlatformStack-ServerFunctionBoundary';

interface IamCall {
  Action: string;
  [param: string]: string;
}
const calls: IamCall[] = [];
const roles = new Map<string, { policy?: string }>();
/** The next calls IAM throttles, as it does a busy account's writes. */
let throttled = 0;
let iam: Server;

const xmlError = (code: string, status: number) => ({
  status,
  body: `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${code} here</Message></Error></ErrorResponse>`,
});

function answer(call: IamCall): { status: number; body: string } {
  const role = roles.get(call.RoleName ?? '');
  switch (call.Action) {
    case 'CreateRole':
      if (role) return xmlError('EntityAlreadyExists', 409);
      roles.set(call.RoleName as string, {});
      return {
        status: 200,
        body: `<CreateRoleResponse><CreateRoleResult><Role><Arn>x</Arn></Role></CreateRoleResult></CreateRoleResponse>`,
      };
    case 'PutRolePolicy':
      if (!role) return xmlError('NoSuchEntity', 404);
      role.policy = call.PolicyDocument;
      return { status: 200, body: '<PutRolePolicyResponse/>' };
    case 'DeleteRolePolicy':
      if (!role?.policy) return xmlError('NoSuchEntity', 404);
      role.policy = undefined;
      return { status: 200, body: '<DeleteRolePolicyResponse/>' };
    case 'DeleteRole':
      if (!role) return xmlError('NoSuchEntity', 404);
      if (role.policy) return xmlError('DeleteConflict', 409);
      roles.delete(call.RoleName as string);
      return { status: 200, body: '<DeleteRoleResponse/>' };
    default:
      return xmlError('InvalidAction', 400);
  }
}

beforeAll(async () => {
  iam = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const refused = verifyHeaderSignature(
        { method: req.method ?? '', url: req.url ?? '/', headers: req.headers, body },
        { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? '' },
      );
      const call = Object.fromEntries(new URLSearchParams(body.toString())) as IamCall;
      const out = refused
        ? xmlError('SignatureDoesNotMatch', 403)
        : throttled-- > 0
          ? xmlError('Throttling', 400)
          : answer(call);
      if (!refused) calls.push(call);
      res.writeHead(out.status, { 'content-type': 'text/xml' }).end(out.body);
    });
  });
  await new Promise<void>((done) => iam.listen(0, '127.0.0.1', done));
  process.env.IAM_ENDPOINT = `http://127.0.0.1:${(iam.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  delete process.env.IAM_ENDPOINT;
  await new Promise((done) => iam.close(done));
});

beforeEach(() => {
  process.env.FUNCTION_BOUNDARY_ARN = BOUNDARY;
  process.env.WEB_ADAPTER_LAYER_ARN = 'arn:aws:lambda:eu-central-1:753240598075:layer:LambdaAdapterLayerArm64:25';
  lambda.on(GetFunctionCommand).resolves({ Configuration: { State: 'Active', LastUpdateStatus: 'Successful' } });
  calls.length = 0;
  roles.clear();
  throttled = 0;
});
afterEach(() => {
  lambda.reset();
  delete process.env.FUNCTION_BOUNDARY_ARN;
  delete process.env.WEB_ADAPTER_LAYER_ARN;
});

/** A project of a fresh organization, with a database and a bucket linked when asked. */
async function project(link: { database?: boolean; bucket?: boolean } = {}) {
  const orgId = newId('org_');
  const projectId = newId('prj_');
  for (const [type, physicalName, region] of [
    ['database', `cust-${projectId.toLowerCase()}`, 'eu-west-1'],
    ['bucket', `plt-${projectId.toLowerCase()}`, 'eu-central-1'],
  ] as const) {
    if (!link[type]) continue;
    const resourceId = newId('res_');
    const { sk } = resourceKey(orgId, type, resourceId);
    await putRecord(orgId, sk, { resourceId, type, status: 'active', projectId, physicalName, region });
    await putRecord(orgId, projectLinkKey(orgId, projectId, type).sk, { resourceId, name: physicalName });
  }
  return { orgId, projectId };
}

const input = (p: { orgId: string; projectId: string }, env: Record<string, string> = {}) => {
  const deploymentId = newId('dpl_');
  return {
    deploymentId,
    ...p,
    code: { bucket: 'artifacts', key: `artifacts/${deploymentId}/function.zip` },
    entry: 'server.js',
    env,
  };
};

const policyOf = (name: string) =>
  JSON.parse(calls.find((c) => c.Action === 'PutRolePolicy' && c.RoleName === name)?.PolicyDocument ?? '{}') as {
    Statement: { Action: string[]; Resource: string[]; Condition?: unknown }[];
  };

describe('runtime port, AWS adapter: a role per server function', () => {
  it('deploy makes the function its own role under the boundary, and the function runs with it', async () => {
    lambda.on(CreateFunctionCommand).resolves({});
    const p = await project();
    const job = input(p, { GREETING: 'hi' });
    const name = `plt-fn-${job.deploymentId}`;
    const info = await awsRuntime().deploy(job);
    expect(info).toEqual({
      region: 'eu-central-1',
      name,
      memoryMb: 1024,
      timeoutSeconds: 30,
      architecture: 'arm64',
      runtime: 'nodejs22.x',
    });
    const create = calls.find((c) => c.Action === 'CreateRole');
    expect(create).toMatchObject({ RoleName: name, PermissionsBoundary: BOUNDARY });
    expect(JSON.parse(create?.AssumeRolePolicyDocument ?? '{}').Statement).toEqual([
      { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
    ]);
    // Its own log group, nothing more: no table, no bucket, no other function's logs.
    const group = `arn:aws:logs:eu-central-1:123456789012:log-group:/aws/lambda/${name}`;
    expect(policyOf(name).Statement).toEqual([
      { Effect: 'Allow', Action: ['logs:CreateLogGroup'], Resource: [group] },
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: [`${group}:*`] },
    ]);
    expect(lambda.commandCalls(CreateFunctionCommand)[0]?.args[0].input).toMatchObject({
      FunctionName: name,
      Role: `arn:aws:iam::123456789012:role/${name}`,
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 1024,
      Timeout: 30,
      Handler: 'run.sh',
      Code: { S3Bucket: 'artifacts', S3Key: `artifacts/${job.deploymentId}/function.zip` },
      Layers: [process.env.WEB_ADAPTER_LAYER_ARN],
      Environment: {
        Variables: {
          GREETING: 'hi',
          AWS_LAMBDA_EXEC_WRAPPER: '/opt/bootstrap',
          PORT: '8080',
          PLATFORM_ENTRY: 'server.js',
        },
      },
    });
  });

  it("a linked database and bucket are the only ones it reaches; a variable naming another tenant's is not a grant", async () => {
    lambda.on(CreateFunctionCommand).resolves({});
    const p = await project({ database: true, bucket: true });
    const job = input(p, { DATABASE_TABLE: 'cust-someone-else', BUCKET_NAME: 'plt-someone-else' });
    await awsRuntime().deploy(job);
    const statements = policyOf(`plt-fn-${job.deploymentId}`).Statement;
    const table = `arn:aws:dynamodb:eu-west-1:123456789012:table/cust-${p.projectId.toLowerCase()}`;
    const bucket = `arn:aws:s3:::plt-${p.projectId.toLowerCase()}`;
    expect(statements.slice(2)).toEqual([
      {
        Effect: 'Allow',
        Action: expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']),
        Resource: [table, `${table}/index/*`],
      },
      {
        Effect: 'Allow',
        Action: expect.arrayContaining(['s3:ListBucket']),
        Resource: [bucket],
        Condition: { StringEquals: { 's3:ResourceAccount': '123456789012' } },
      },
      {
        Effect: 'Allow',
        Action: expect.arrayContaining(['s3:GetObject', 's3:PutObject']),
        Resource: [`${bucket}/*`],
        Condition: { StringEquals: { 's3:ResourceAccount': '123456789012' } },
      },
    ]);
    expect(JSON.stringify(statements)).not.toContain('someone-else');
    // No table-level changes and no wildcard actions.
    expect(statements.flatMap((s) => s.Action).filter((a) => a.includes('*') || /Table$/.test(a))).toEqual([
      'dynamodb:DescribeTable',
    ]);
  });

  it('a role IAM has not spread yet is waited for; a retried deploy keeps the role and rewrites its policy', async () => {
    const notYet = Object.assign(new Error('The role defined for the function cannot be assumed by Lambda.'), {
      name: 'InvalidParameterValueException',
    });
    lambda.on(CreateFunctionCommand).rejectsOnce(notYet).resolves({});
    const p = await project();
    const job = input(p);
    await awsRuntime({ roleWait: { ms: 1, tries: 3 } }).deploy(job);
    expect(lambda.commandCalls(CreateFunctionCommand)).toHaveLength(2);
    lambda.on(CreateFunctionCommand).rejects(Object.assign(new Error('exists'), { name: 'ResourceConflictException' }));
    await awsRuntime().deploy(job);
    expect(calls.map((c) => c.Action)).toEqual(['CreateRole', 'PutRolePolicy', 'CreateRole', 'PutRolePolicy']);
  });

  it('IAM throttling is waited out; a function Lambda refuses leaves no role behind', async () => {
    lambda.on(CreateFunctionCommand).resolves({});
    throttled = 2;
    const first = input(await project());
    await awsRuntime().deploy(first);
    expect(roles.has(`plt-fn-${first.deploymentId}`)).toBe(true);
    const refused = Object.assign(new Error('Unzipped size must be smaller than 262144000 bytes'), {
      name: 'InvalidParameterValueException',
    });
    lambda.on(CreateFunctionCommand).rejects(refused);
    const second = input(await project());
    await expect(awsRuntime().deploy(second)).rejects.toThrow('Unzipped size must be smaller');
    expect(roles.has(`plt-fn-${second.deploymentId}`)).toBe(false);
  });

  it('without the boundary nothing is created', async () => {
    delete process.env.FUNCTION_BOUNDARY_ARN;
    await expect(awsRuntime().deploy(input(await project()))).rejects.toThrow('FUNCTION_BOUNDARY_ARN is not set');
    expect(calls).toEqual([]);
    expect(lambda.commandCalls(CreateFunctionCommand)).toHaveLength(0);
  });

  it('exists; remove deletes the function, then its role; what is already gone is not an error', async () => {
    lambda.on(CreateFunctionCommand).resolves({});
    const job = input(await project());
    await awsRuntime().deploy(job);
    const missing = Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' });
    expect(await awsRuntime().exists(job.deploymentId)).toBe(true);
    lambda.on(GetFunctionCommand).rejects(missing);
    expect(await awsRuntime().exists(job.deploymentId)).toBe(false);
    lambda.on(DeleteFunctionCommand).resolvesOnce({}).rejects(missing);
    await awsRuntime().remove(job.deploymentId);
    expect(roles.size).toBe(0);
    await awsRuntime().remove(job.deploymentId);
    const name = `plt-fn-${job.deploymentId}`;
    expect(lambda.commandCalls(DeleteFunctionCommand).map((c) => c.args[0].input)).toEqual([
      { FunctionName: name },
      { FunctionName: name },
    ]);
    expect(calls.slice(2).map((c) => [c.Action, c.RoleName])).toEqual([
      ['DeleteRolePolicy', name],
      ['DeleteRole', name],
      ['DeleteRolePolicy', name],
      ['DeleteRole', name],
    ]);
  });
});
