/**
 * The sign-in port: OAuth clients of the identity provider that a project's own users sign in
 * with. AWS: app clients of a Cognito user pool (`COGNITO_USER_POOL_ID`). One machine: the local
 * identity provider (lib/local/idp.ts), which reads the clients' records from the platform table;
 * its adapter makes the ids and secrets.
 */
export type ClientType = 'web' | 'spa' | 'native';

export interface ClientSpec {
  name: string;
  type: ClientType;
  redirectUris: string[];
  allowedOrigins: string[];
  scopes: string[];
}

/** A client secret: its id (to remove it later) and its value, shown once. */
export interface NewSecret {
  secretId: string;
  value: string;
}

export interface SigninPort {
  /** A new client: its id, and for a web client (confidential) its first secret. */
  create(spec: ClientSpec): Promise<{ clientId: string; secret?: NewSecret }>;
  update(clientId: string, spec: ClientSpec): Promise<void>;
  /** Removes the client; its refresh tokens stop working. A client already gone is no error. */
  remove(clientId: string): Promise<void>;
  /** A second secret beside the current one (two at most). */
  addSecret(clientId: string): Promise<NewSecret>;
  removeSecret(clientId: string, secretId: string): Promise<void>;
}

/** The provider takes no clients from the platform (no user pool set up for it). */
export class SigninUnavailableError extends Error {}
