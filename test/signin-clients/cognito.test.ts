import {
  AddUserPoolClientSecretCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  DeleteUserPoolClientSecretCommand,
  ListUserPoolClientSecretsCommand,
  ResourceNotFoundException,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { awsSignin } from '../../shared/ports/signin/aws';
import { SigninUnavailableError } from '../../shared/ports/signin/port';

/** The AWS adapter of the sign-in port, against the Cognito calls it must make. */
const cognito = mockClient(CognitoIdentityProviderClient);
const saved = process.env.COGNITO_USER_POOL_ID;
const spec = {
  name: 'Shop',
  type: 'web' as const,
  redirectUris: ['https://shop.example.com/cb'],
  allowedOrigins: [],
  scopes: ['openid', 'email'],
};

beforeEach(() => {
  cognito.reset();
  process.env.COGNITO_USER_POOL_ID = 'eu-central-1_pool';
});
afterAll(() => {
  process.env.COGNITO_USER_POOL_ID = saved;
  cognito.restore();
});

test('a web client: a confidential app client with the code flow, its first secret by id', async () => {
  cognito
    .on(CreateUserPoolClientCommand)
    .resolves({ UserPoolClient: { ClientId: 'abc123', ClientSecret: 's3cret' } })
    .on(ListUserPoolClientSecretsCommand)
    .resolves({ ClientSecrets: [{ ClientSecretId: 'sec-1' }] });
  expect(await awsSignin().create(spec)).toEqual({
    clientId: 'abc123',
    secret: { secretId: 'sec-1', value: 's3cret' },
  });
  expect(cognito.commandCalls(CreateUserPoolClientCommand)[0]?.args[0].input).toEqual({
    UserPoolId: 'eu-central-1_pool',
    GenerateSecret: true,
    ClientName: 'Shop',
    CallbackURLs: ['https://shop.example.com/cb'],
    AllowedOAuthFlows: ['code'],
    AllowedOAuthFlowsUserPoolClient: true,
    AllowedOAuthScopes: ['openid', 'email'],
    SupportedIdentityProviders: ['COGNITO'],
    EnableTokenRevocation: true,
    ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
  });
});

test('a public client has no secret; updates, secrets and deletes name the pool and client', async () => {
  cognito
    .on(CreateUserPoolClientCommand)
    .resolves({ UserPoolClient: { ClientId: 'pub1' } })
    .on(UpdateUserPoolClientCommand)
    .resolves({})
    .on(AddUserPoolClientSecretCommand)
    .resolves({ ClientSecretDescriptor: { ClientSecretId: 'sec-2', ClientSecretValue: 'v2' } })
    .on(DeleteUserPoolClientSecretCommand)
    .resolves({})
    .on(DeleteUserPoolClientCommand)
    .rejects(new ResourceNotFoundException({ message: 'gone', $metadata: {} } as never));
  expect(await awsSignin().create({ ...spec, type: 'spa' })).toEqual({ clientId: 'pub1' });
  expect(cognito.commandCalls(CreateUserPoolClientCommand)[0]?.args[0].input.GenerateSecret).toBe(false);
  await awsSignin().update('pub1', { ...spec, name: 'Shop 2' });
  expect(cognito.commandCalls(UpdateUserPoolClientCommand)[0]?.args[0].input).toMatchObject({
    UserPoolId: 'eu-central-1_pool',
    ClientId: 'pub1',
    ClientName: 'Shop 2',
  });
  expect(await awsSignin().addSecret('abc123')).toEqual({ secretId: 'sec-2', value: 'v2' });
  await awsSignin().removeSecret('abc123', 'sec-1');
  expect(cognito.commandCalls(DeleteUserPoolClientSecretCommand)[0]?.args[0].input).toEqual({
    UserPoolId: 'eu-central-1_pool',
    ClientId: 'abc123',
    ClientSecretId: 'sec-1',
  });
  // A client already gone is no error.
  await expect(awsSignin().remove('pub1')).resolves.toBeUndefined();
});

test('without a user pool the adapter says so, and calls nothing', async () => {
  process.env.COGNITO_USER_POOL_ID = '-';
  await expect(awsSignin().create(spec)).rejects.toBeInstanceOf(SigninUnavailableError);
  expect(cognito.calls()).toHaveLength(0);
});
