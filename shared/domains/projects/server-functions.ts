import { deleteMany, queryAll } from '../../kernel/store/ops';
import { keys } from '../../kernel/store/table';
import { projectPrefixes } from './records';
import type { ProjectRecord } from './schema';

type ProjectRef = Pick<ProjectRecord, 'orgId' | 'projectId'>;

/**
 * The deployments product's part, handed in by the route (functions/projects): deployments stand
 * above projects, so projects import nothing of them. Each is idempotent.
 */
export interface DeployedFunctionRemovers {
  /** Stops and deletes the project's deployed functions (Lambda, or the local runtime's processes). */
  functions(project: ProjectRef): Promise<void>;
  /** Deletes what its deployments serve (static files, function packages). */
  outputs(project: ProjectRef): Promise<void>;
}

/**
 * How a project's server functions are removed when the project is deleted: a list of removers,
 * run in order, each idempotent (a retried delete runs them again): the deployed functions and
 * the deployments' outputs (the deployments product's, handed in), then the function records
 * (`FN#<projectId>#…`).
 */
interface ServerFunctionRemover {
  name: string;
  remove(project: ProjectRef): Promise<void>;
}

const serverFunctionRemovers = (deployed: DeployedFunctionRemovers): ServerFunctionRemover[] => [
  { name: 'deployed functions', remove: (p) => deployed.functions(p) },
  { name: 'deployment outputs', remove: (p) => deployed.outputs(p) },
  {
    name: 'function records',
    remove: async ({ orgId, projectId }) => {
      const records = await queryAll<{ pk: string; sk: string }>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': projectPrefixes.serverFunction(projectId) },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      });
      await deleteMany(records);
    },
  },
];

export async function removeServerFunctions(project: ProjectRef, deployed: DeployedFunctionRemovers): Promise<void> {
  for (const remover of serverFunctionRemovers(deployed)) await remover.remove(project);
}
