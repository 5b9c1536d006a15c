import { config } from '../../kernel/config';
import type { RuntimePort } from './port';

export type { DeployFunctionInput, FunctionInfo, RuntimeLogLine, RuntimePort } from './port';
export { functionInfo, functionName } from './port';

let adapter: Promise<RuntimePort> | undefined;

// As in shared/ports/builds: the local adapter (child processes) stays out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

export function runtime(): Promise<RuntimePort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localRuntime: () => RuntimePort }>).then((m) => m.localRuntime())
      : import('./aws').then((m) => m.awsRuntime());
  return adapter;
}
