import { FUNCTION_PREFIX, GIT_REPO_PREFIX } from '../deployments';
import { nagArn } from '../nag';
import type { Grant, Grants } from './grant';

/** Deployments: their builds (CodeBuild), their server functions (Lambda), repositories (CodeCommit). */

// The needs whose only variable is FUNCTION_PREFIX; serverFunctions adds its own to it.
type FunctionNeed = 'functionsInvoke' | 'functionsDelete';

/** Server functions by name prefix: `actions` on them, and their prefix in the environment. */
const serverFunctions = (actions: string[]): Required<Grant<FunctionNeed>> => ({
  env: () => ({ FUNCTION_PREFIX }),
  grant: ({ f, platform, ack }) => {
    platform.deployments.grantFunctions(f.fn, actions);
    ack(
      `Server functions are created per deployment at runtime: known only by the name prefix ${FUNCTION_PREFIX}.`,
      `Resource::${nagArn(platform.deployments.functionsArn())}`,
    );
  },
});
const creating = serverFunctions([
  'lambda:CreateFunction',
  'lambda:GetFunction',
  'lambda:DeleteFunction',
  'lambda:TagResource',
]);
const deleting = serverFunctions(['lambda:DeleteFunction']);

export const deploymentGrants: Grants<
  | 'builds'
  | 'repoImports'
  | 'buildLogs'
  | 'serverFunctions'
  | 'functionsInvoke'
  | 'functionsDelete'
  | 'functions'
  | 'git'
> = {
  // Start and stop builds of the one build project; read its log group.
  builds: {
    env: ({ platform: { deployments } }) => ({
      BUILD_PROJECT: deployments.project.projectName,
      BUILD_LOG_GROUP: deployments.buildLogs.logGroupName,
    }),
    grant: ({ platform: { deployments }, allow }) => {
      allow({ actions: ['codebuild:StartBuild', 'codebuild:StopBuild'], resources: [deployments.project.projectArn] });
      allow({ actions: ['logs:GetLogEvents'], resources: [deployments.buildLogs.logGroupArn] });
    },
  },

  // Start and stop imports: builds of the import project.
  repoImports: {
    env: ({ platform: { imports } }) => ({ IMPORT_PROJECT: imports.project.projectName }),
    grant: ({ platform: { imports }, allow }) =>
      allow({ actions: ['codebuild:StartBuild', 'codebuild:StopBuild'], resources: [imports.project.projectArn] }),
  },

  // The build log only: a failed build's last error line.
  buildLogs: {
    env: ({ platform: { deployments } }) => ({ BUILD_LOG_GROUP: deployments.buildLogs.logGroupName }),
    grant: ({ platform: { deployments }, allow }) =>
      allow({ actions: ['logs:GetLogEvents'], resources: [deployments.buildLogs.logGroupArn] }),
  },

  // Creating server functions (build-events): each with a role of its own, made under the
  // server-function boundary, and the web adapter layer; retried deliveries find the function
  // they created (GetFunction).
  serverFunctions: {
    env: (to) => ({
      ...creating.env(to),
      FUNCTION_BOUNDARY_ARN: to.platform.deployments.functionBoundary.managedPolicyArn,
      WEB_ADAPTER_LAYER_ARN: to.platform.deployments.webAdapterLayerArn,
    }),
    grant: (to) => {
      creating.grant(to);
      to.platform.deployments.grantFunctionRoles(to.f);
      to.allow({ actions: ['lambda:GetLayerVersion'], resources: [to.platform.deployments.webAdapterLayerArn] });
    },
  },

  // Invoking server functions: the router answers a server deployment's requests with them.
  functionsInvoke: serverFunctions(['lambda:InvokeFunction']),

  // Removing expired deployments' server functions (retention).
  functionsDelete: {
    env: deleting.env,
    grant: (to) => {
      deleting.grant(to);
      to.platform.deployments.grantFunctionRoleRemoval(to.f);
    },
  },

  // Deployed server functions: whether one exists, remove it, read its logs. Created only by
  // the build-events worker.
  functions: {
    env: () => ({ FUNCTION_PREFIX }),
    grant: ({ f, platform: { deployments }, allow, ack }) => {
      deployments.grantFunctions(f.fn, ['lambda:GetFunction', 'lambda:DeleteFunction']);
      deployments.grantFunctionRoleRemoval(f);
      const logGroups = deployments.functionLogsArn();
      allow({ actions: ['logs:FilterLogEvents'], resources: [logGroups, `${logGroups}:*`] });
      ack(
        `Server functions are created per deployment at runtime, so they (and their log groups) are known only by ` +
          `the name prefix ${FUNCTION_PREFIX}, in this account and region.`,
        `Resource::${nagArn(deployments.functionsArn())}`,
        `Resource::${nagArn(logGroups)}`,
        `Resource::${nagArn(logGroups)}:*`,
      );
    },
  },

  // Repositories: CodeCommit repositories by name prefix (each platform repository is one).
  git: {
    env: () => ({ GIT_REPO_PREFIX }),
    grant: ({ stack, allow, ack }) => {
      const repositories = stack.formatArn({ service: 'codecommit', resource: `${GIT_REPO_PREFIX}*` });
      allow({
        actions: [
          'codecommit:CreateRepository',
          'codecommit:DeleteRepository',
          'codecommit:GetRepository',
          'codecommit:ListBranches',
          'codecommit:GetBranch',
          'codecommit:CreateBranch',
          'codecommit:DeleteBranch',
          'codecommit:GetCommit',
          'codecommit:CreateCommit',
          'codecommit:GetFile',
          'codecommit:GetFolder',
          'codecommit:GetBlob',
          'codecommit:GetDifferences',
          'codecommit:GetMergeOptions',
          'codecommit:GetMergeConflicts',
          'codecommit:MergeBranchesByFastForward',
          'codecommit:MergeBranchesBySquash',
          'codecommit:MergeBranchesByThreeWay',
          'codecommit:GitPull',
          'codecommit:GitPush',
        ],
        resources: [repositories],
      });
      ack(
        `Repositories are created at runtime, one per platform repository: known only by the name prefix ${GIT_REPO_PREFIX}.`,
        `Resource::${nagArn(repositories)}`,
      );
    },
  },
};
