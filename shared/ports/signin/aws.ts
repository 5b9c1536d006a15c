import {
  AddUserPoolClientSecretCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  DeleteUserPoolClientSecretCommand,
  ListUserPoolClientSecretsCommand,
  type OAuthFlowType,
  ResourceNotFoundException,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { readEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { type ClientSpec, type SigninPort, SigninUnavailableError } from './port';

let client: CognitoIdentityProviderClient | undefined;

/** The user pool of the project users' sign-in (`COGNITO_USER_POOL_ID`; `-`: none set up). */
function pool(): string {
  const id = readEnv('COGNITO_USER_POOL_ID');
  if (!id || id === '-') throw new SigninUnavailableError('No user pool is set up for sign-in clients.');
  return id;
}

const cognito = () => {
  client ??= new CognitoIdentityProviderClient(sdkSettings('signin'));
  return client;
};

/** What Cognito holds of a client: the code flow (PKCE is required by Cognito for public clients), its URLs and scopes. */
const settings = (spec: ClientSpec) => ({
  ClientName: spec.name,
  CallbackURLs: spec.redirectUris,
  AllowedOAuthFlows: ['code'] as OAuthFlowType[],
  AllowedOAuthFlowsUserPoolClient: true,
  AllowedOAuthScopes: spec.scopes,
  SupportedIdentityProviders: ['COGNITO'],
  EnableTokenRevocation: true,
  ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH' as const],
});

export const awsSignin = (): SigninPort => ({
  async create(spec) {
    const out = await cognito().send(
      new CreateUserPoolClientCommand({ UserPoolId: pool(), GenerateSecret: spec.type === 'web', ...settings(spec) }),
    );
    const made = out.UserPoolClient;
    if (!made?.ClientId) throw new Error('Cognito made no client.');
    if (spec.type !== 'web') return { clientId: made.ClientId };
    // CreateUserPoolClient answers the first secret's value, not its id: the pool lists it.
    const listed = await cognito().send(
      new ListUserPoolClientSecretsCommand({ UserPoolId: pool(), ClientId: made.ClientId }),
    );
    const secretId = listed.ClientSecrets?.[0]?.ClientSecretId;
    if (!secretId || !made.ClientSecret) throw new Error('Cognito made no secret.');
    return { clientId: made.ClientId, secret: { secretId, value: made.ClientSecret } };
  },
  async update(clientId, spec) {
    await cognito().send(
      new UpdateUserPoolClientCommand({ UserPoolId: pool(), ClientId: clientId, ...settings(spec) }),
    );
  },
  async remove(clientId) {
    try {
      await cognito().send(new DeleteUserPoolClientCommand({ UserPoolId: pool(), ClientId: clientId }));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
  },
  async addSecret(clientId) {
    const out = await cognito().send(new AddUserPoolClientSecretCommand({ UserPoolId: pool(), ClientId: clientId }));
    const d = out.ClientSecretDescriptor;
    if (!d?.ClientSecretId || !d.ClientSecretValue) throw new Error('Cognito made no secret.');
    return { secretId: d.ClientSecretId, value: d.ClientSecretValue };
  },
  async removeSecret(clientId, secretId) {
    try {
      await cognito().send(
        new DeleteUserPoolClientSecretCommand({ UserPoolId: pool(), ClientId: clientId, ClientSecretId: secretId }),
      );
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
  },
});
