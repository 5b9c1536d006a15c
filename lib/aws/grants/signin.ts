import type { Grants } from './grant';

/** Sign-in clients: app clients of the one Cognito user pool; without a pool, `-` and nothing granted (the routes answer 409). */
export const signinGrants: Grants<'signin'> = {
  signin: {
    env: ({ platform }) => ({ COGNITO_USER_POOL_ID: platform.cognitoUserPoolId ?? '-' }),
    grant: ({ stack, platform, allow }) => {
      const poolId = platform.cognitoUserPoolId;
      if (!poolId) return;
      allow({
        actions: [
          'cognito-idp:CreateUserPoolClient',
          'cognito-idp:UpdateUserPoolClient',
          'cognito-idp:DeleteUserPoolClient',
          'cognito-idp:AddUserPoolClientSecret',
          'cognito-idp:DeleteUserPoolClientSecret',
          'cognito-idp:ListUserPoolClientSecrets',
        ],
        resources: [stack.formatArn({ service: 'cognito-idp', resource: 'userpool', resourceName: poolId })],
      });
    },
  },
};
