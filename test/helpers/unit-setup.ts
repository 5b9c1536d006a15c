import { randomBytes } from 'node:crypto';

/**
 * Global setup of the fast lane (jest.unit.config.cjs): the variables the code reads when it is
 * imported, with throwaway values. Nothing is started: a suite that needs an engine is not a unit suite.
 */
export default async function unitSetup(): Promise<void> {
  const defaults: Record<string, string> = {
    AWS_REGION: 'eu-central-1',
    TABLE_NAME: 'platform-unit',
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    LOCAL_SECRETS_KEY: randomBytes(32).toString('base64'),
    PLATFORM_TARGET: 'local',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  for (const [name, value] of Object.entries(defaults)) process.env[name] ??= value;
}
