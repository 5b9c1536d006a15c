import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LambdaClient, ListFunctionsCommand, ListTagsCommand } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { samEnv, templateFunctions, writeSamEnv } from '../../scripts/sam-env';

/**
 * scripts/sam-env.ts against the Lambda calls it makes (aws-sdk-client-mock): the env-vars file of
 * `sam local invoke` holds each deployed function's real environment, keyed by its logical id.
 */
const lambda = mockClient(LambdaClient);
afterEach(() => lambda.reset());

const arn = (name: string) => `arn:aws:lambda:eu-central-1:123456789012:function:${name}`;
const tags: Record<string, Record<string, string>> = {
  [arn('PlatformStack-ProjectsFunction-abc')]: {
    'aws:cloudformation:stack-name': 'PlatformStack',
    'aws:cloudformation:logical-id': 'ProjectsFunction7C107978',
  },
  [arn('PlatformStack-OrgsFunction-def')]: {
    'aws:cloudformation:stack-name': 'PlatformStack',
    'aws:cloudformation:logical-id': 'OrgsFunctionA1B2C3D4',
  },
  // The same logical id in another stage's stack, and a deployed server function: not ours.
  [arn('PlatformStack-prod-ProjectsFunction-xyz')]: {
    'aws:cloudformation:stack-name': 'PlatformStack-prod',
    'aws:cloudformation:logical-id': 'ProjectsFunction7C107978',
  },
  [arn('plt-fn-dpl_1')]: { 'platform:project': 'prj_1' },
};

function deployed(): void {
  lambda
    .on(ListFunctionsCommand, { Marker: undefined })
    .resolves({
      Functions: [
        {
          FunctionArn: arn('PlatformStack-ProjectsFunction-abc'),
          Environment: {
            Variables: {
              TABLE_NAME: 'PlatformStack-Table-REAL',
              CURSOR_SECRET: 'real-cursor-secret',
              AUTH_URL: 'https://auth.example.com',
              AUTH_AUDIENCE: 'platform-api',
            },
          },
        },
        { FunctionArn: arn('plt-fn-dpl_1'), Environment: { Variables: { GREETING: 'hi' } } },
      ],
      NextMarker: 'page-2',
    })
    .on(ListFunctionsCommand, { Marker: 'page-2' })
    .resolves({
      Functions: [
        {
          FunctionArn: arn('PlatformStack-prod-ProjectsFunction-xyz'),
          Environment: { Variables: { TABLE_NAME: 'P' } },
        },
        { FunctionArn: arn('PlatformStack-OrgsFunction-def'), Environment: { Variables: { TABLE_NAME: 'T' } } },
      ],
    });
  lambda.on(ListTagsCommand).callsFake((input: { Resource: string }) => ({ Tags: tags[input.Resource] ?? {} }));
}

test("each function of the template gets its deployed environment, matched by the stack's tags", async () => {
  deployed();
  const env = await samEnv(new LambdaClient({}), 'PlatformStack', ['OrgsFunctionA1B2C3D4', 'ProjectsFunction7C107978']);
  expect(env).toEqual({
    ProjectsFunction7C107978: {
      TABLE_NAME: 'PlatformStack-Table-REAL',
      CURSOR_SECRET: 'real-cursor-secret',
      AUTH_URL: 'https://auth.example.com',
      AUTH_AUDIENCE: 'platform-api',
    },
    OrgsFunctionA1B2C3D4: { TABLE_NAME: 'T' },
  });
  expect(lambda.commandCalls(ListFunctionsCommand)).toHaveLength(2);
});

test('a function of the template that is not deployed is said plainly', async () => {
  deployed();
  await expect(samEnv(new LambdaClient({}), 'PlatformStack', ['JobsFunction99'])).rejects.toThrow(
    'The stack PlatformStack has no deployed function JobsFunction99: deploy it first (npm run deploy)',
  );
});

test("the template's functions are its AWS::Lambda::Function resources", () => {
  expect(
    templateFunctions({
      Resources: {
        ZFunction: { Type: 'AWS::Lambda::Function' },
        Role: { Type: 'AWS::IAM::Role' },
        AFunction: { Type: 'AWS::Lambda::Function' },
      },
    }),
  ).toEqual(['AFunction', 'ZFunction']);
});

test('the file is SAM’s env-vars JSON, readable by its owner only (it holds the cursor secret)', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'sam-env-')), 'env.json');
  writeSamEnv(file, { F: { CURSOR_SECRET: 's' } });
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ F: { CURSOR_SECRET: 's' } });
  expect(statSync(file).mode & 0o777).toBe(0o600);
});
