import { config } from '../../kernel/config';
import type { RuntimePort } from './port';

/** The name the deployments group's log route still imports the port's lines by (they are `TailLogLine`s). */
export type {
  DeployFunctionInput,
  FunctionInfo,
  RuntimePort,
  TailLogLine,
  TailLogLine as RuntimeLogLine,
} from './port';
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
