import { config } from '../config';
import { FUNCTION_CONFIG } from '../schemas/deployment';
import type { FunctionInfo, RuntimePort } from './port';

export type { DeployFunctionInput, FunctionInfo, RuntimeLogLine, RuntimePort } from './port';

/** Functions are named `<prefix><deploymentId>`: the platform's grants are scoped to the prefix. */
export const functionName = (deploymentId: string) => `${process.env.FUNCTION_PREFIX ?? 'plt-fn-'}${deploymentId}`;

export const functionInfo = (deploymentId: string, region = config.region): FunctionInfo => ({
  region,
  name: functionName(deploymentId),
  ...FUNCTION_CONFIG,
});

let adapter: Promise<RuntimePort> | undefined;

// As in shared/builds: the local adapter (child processes) stays out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

export function runtime(): Promise<RuntimePort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localRuntime: () => RuntimePort }>).then((m) => m.localRuntime())
      : import('./aws').then((m) => m.awsRuntime());
  return adapter;
}
