import { config } from '../config';
import { FUNCTION_CONFIG } from '../schemas/deployment';
// Static: a dynamic import() would keep every command of the adapter's SDK clients in the bundle.
import { awsRuntime } from './aws';
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
      : Promise.resolve(awsRuntime());
  return adapter;
}
