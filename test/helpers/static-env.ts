/**
 * The variables of the test run that are known before anything starts, set before any platform
 * module is imported (shared/config reads the environment once, at import): the identity
 * provider of the global setup reads sign-in clients from this table.
 */
export const STATIC_ENV = {
  TABLE_NAME: 'platform-test',
  PLATFORM_TARGET: 'local',
  AWS_REGION: 'eu-central-1',
};
Object.assign(process.env, STATIC_ENV);
