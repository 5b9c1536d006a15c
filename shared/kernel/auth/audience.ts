/**
 * The audience access tokens must name when `AUTH_AUDIENCE` is not set: the local identity
 * provider issues it, so `npm start`, the local command line and the tests agree without setting
 * it. A file of its own, free of side effects: the local identity provider reads it without
 * fixing the API's configuration before `npm start` has set the environment.
 */
export const DEFAULT_AUTH_AUDIENCE = 'platform-api';

/** The audience of an environment. */
export const audienceOf = (env: NodeJS.ProcessEnv): string => env.AUTH_AUDIENCE || DEFAULT_AUTH_AUDIENCE;
