import { definePort } from '../adapter';
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

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Server functions: a Lambda function per deployment, or a child process per deployment on one machine. */
export const runtime = definePort<RuntimePort>({
  aws: () => import('./aws').then((m) => m.awsRuntime()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localRuntime()),
});
