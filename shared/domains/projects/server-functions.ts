import { deleteMany, queryAll } from '../../kernel/store/ops';
import { keys } from '../../kernel/store/table';
import { removeProjectFunctions, removeProjectOutputs } from '../deployments/functions';
import { projectPrefixes } from './records';
import type { ProjectRecord } from './schema';

/**
 * How a project's server functions are removed when the project is deleted: a list of removers,
 * run in order, each idempotent (a retried delete runs them again). Today the only one removes
 * the function records (`FN#<projectId>#…`); the deployments group adds the removal of the
 * deployed functions themselves (Lambda, or the local runtime's processes) in front of it.
 */
interface ServerFunctionRemover {
  name: string;
  remove(project: Pick<ProjectRecord, 'orgId' | 'projectId'>): Promise<void>;
}

const serverFunctionRemovers: ServerFunctionRemover[] = [
  // The deployments group: stops and deletes the functions themselves (Lambda, local processes).
  { name: 'deployed functions', remove: removeProjectFunctions },
  { name: 'deployment outputs', remove: removeProjectOutputs },
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

export async function removeServerFunctions(project: Pick<ProjectRecord, 'orgId' | 'projectId'>): Promise<void> {
  for (const remover of serverFunctionRemovers) await remover.remove(project);
}
