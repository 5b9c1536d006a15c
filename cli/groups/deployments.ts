import { CliError, linkOf, listProjects, requireProject, UsageError } from '../context';
import { promoteDeployment } from '../deploy';
import { duration, table, when } from '../output';
import { parseFramework } from '../projects';
import type { CommandSpec, Ctx } from '../spec';
import { intOption, PROJECT } from './common';

/** `deployments ls|inspect|cancel` and `projects settings`, as vercel has them, over the typed client. */

/** `12s`, `5m`, `3h`, `2d` since a time (epoch ms). */
export function age(since: number | undefined, now = Date.now()): string {
  if (!since) return '-';
  const s = Math.max(0, Math.round((now - since) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

const TARGETS = ['production', 'preview'] as const;
const STATUSES = ['queued', 'building', 'deploying', 'ready', 'error', 'canceled', 'expired', 'skipped'] as const;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`Unknown ${name} ${value}: use ${allowed.join(', ')}.`);
  return value as T;
}

/** `--name value` given: it; `--no-name`: null (unset); neither: undefined (unchanged). */
function setting(c: Ctx, name: string): string | null | undefined {
  if (c.flag(`no-${name}`)) {
    if (c.str(name) !== undefined) throw new UsageError(`Give --${name} or --no-${name}, not both.`);
    return null;
  }
  return c.str(name);
}

export const DEPLOYMENT_COMMANDS: CommandSpec[] = [
  {
    path: ['deployments', 'ls'],
    aliases: ['list'],
    summary: "the organization's deployments, newest first: status, target, host, age",
    details: 'With --project (or a linked folder), that project only.',
    options: {
      project: PROJECT,
      target: { type: 'string', value: 'production|preview', help: 'of this target', complete: TARGETS },
      status: { type: 'string', value: 'STATUS', help: `in this status (${STATUSES.join(', ')})`, complete: STATUSES },
      limit: { type: 'string', value: 'N', help: 'at most N (default 20)' },
    },
    examples: ['platform deployments ls', 'platform deployments ls --project web --target production'],
    run: async (c) => {
      const target = oneOf('target', c.str('target'), TARGETS);
      const status = oneOf('status', c.str('status'), STATUSES);
      const limit = intOption(c, 'limit', 1, 100) ?? 20;
      const s = await c.session();
      const named = c.str('project') ?? s.io.env.PLATFORM_PROJECT ?? s.link?.projectId;
      const project = named ? await requireProject(s, named) : undefined;
      const res = await s.api.getDeployments({
        orgId: s.config.orgId,
        projectId: project?.projectId,
        target,
        status,
        limit,
      });
      const now = Date.now();
      // What production serves: each project's production deployment (not in the list's answer).
      const serving = new Set(
        c.json || res.deployments.length === 0
          ? []
          : (project ? [project] : await listProjects(s)).map((x) => x.productionDeploymentId).filter(Boolean),
      );
      return c.print(res, () =>
        res.deployments.length === 0
          ? 'No deployments yet. Deploy a folder: platform deploy'
          : table(
              [
                ['ID', 'STATUS', 'TARGET', 'URL', 'AGE', 'LIVE', 'COMMIT'],
                ...res.deployments.map((d) => [
                  d.deploymentId,
                  d.status ?? '-',
                  d.target,
                  d.host ? linkOf(d.host) : '-',
                  age(d.createdAt, now),
                  serving.has(d.deploymentId) ? 'production' : '',
                  d.commitMessage ?? d.meta?.commit ?? '',
                ]),
              ],
              c.io,
              [0, 1, 2, 3, 4, 5],
              1,
            ),
      );
    },
  },
  {
    path: ['deployments', 'inspect'],
    summary: 'one deployment: status, target, URL, project, source, build times, server function',
    positionals: [{ name: 'deploymentId', required: true }],
    examples: ['platform deployments inspect dpl_01m8bhk6hy7q'],
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.getDeploymentsByDeploymentId({
        orgId: s.config.orgId,
        deploymentId: c.args[0] as string,
      });
      const d = res.deployment;
      return c.print(res, () => {
        const rows: [string, string | undefined][] = [
          ['id', d.deploymentId],
          ['status', `${d.status ?? '-'}${d.error ? `: ${d.error}` : ''}`],
          ['target', d.target],
          ['url', d.host ? linkOf(d.host) : undefined],
          ['production', d.target === 'production' && res.productionHost ? linkOf(res.productionHost) : undefined],
          ['project', `${res.project.slug} (${res.project.projectId})`],
          ['source', d.source],
          ['branch', d.branch ?? d.meta?.branch],
          ['commit', [d.commitSha?.slice(0, 12), d.commitMessage].filter(Boolean).join(' ') || d.meta?.commit],
          ['created', d.createdAt ? `${when(d.createdAt)} (${age(d.createdAt)} ago)` : undefined],
          ['ready', d.readyAt ? when(d.readyAt) : undefined],
          ['build', d.buildDurationMs !== undefined ? duration(d.buildDurationMs / 1000) : undefined],
          ['domains', res.domains.map((x) => x.hostname).join(', ') || undefined],
          [
            'function',
            res.function ? `${res.function.runtime}, ${res.function.memoryMb} MB, ${res.function.region}` : undefined,
          ],
        ];
        return rows
          .filter((r): r is [string, string] => !!r[1])
          .map(([k, v]) => `${k.padEnd(11)}${v}`)
          .join('\n');
      });
    },
  },
  {
    path: ['rollback'],
    jsonLast: true,
    summary: "production serves the project's previous production deployment again (a promote, no build)",
    details:
      'Without a deployment id: the newest ready production deployment older than the one production serves\n' +
      '(run it again to go further back). With one: that deployment (platform promote). Its build and\n' +
      'variables are the ones it was made with.',
    positionals: [{ name: 'deploymentId', help: 'the deployment to go back to (default: the previous one)' }],
    options: { project: PROJECT },
    examples: ['platform rollback --project web', 'platform rollback dpl_01m80dmbn362ba0rqqgmf0ee00'],
    run: async (c) => {
      const s = await c.session();
      let to = c.args[0];
      let from: string | undefined;
      if (!to) {
        const project = await requireProject(s, c.str('project'));
        from = project.productionDeploymentId;
        if (!from) throw new CliError(`${project.slug} has no production deployment yet.`);
        const orgId = s.config.orgId;
        const current = await s.api.getDeploymentsByDeploymentId({ orgId, deploymentId: from });
        const { deployments } = await s.api.getDeployments({
          orgId,
          projectId: project.projectId,
          target: 'production',
          status: 'ready',
          limit: 100,
        });
        const since = current.deployment.createdAt ?? 0;
        to = deployments.find((d) => d.deploymentId !== from && (d.createdAt ?? 0) < since)?.deploymentId;
        if (!to) throw new CliError(`${project.slug} has no earlier ready production deployment to roll back to.`);
      }
      const res = await promoteDeployment(s, to);
      c.io.stdout(
        `Rolled back to ${to}${from ? ` (from ${from})` : ''}: production serves it at ${linkOf(res.productionHost)}\n`,
      );
      return 0;
    },
  },
  {
    path: ['deployments', 'cancel'],
    summary: 'cancel a deployment still queued, building or deploying: its build stops',
    details:
      'A deployment that has already finished (ready, error, expired, skipped) or was canceled is left as it is.',
    positionals: [{ name: 'deploymentId', required: true }],
    examples: ['platform deployments cancel dpl_01m8bhk6hy7q'],
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.postDeploymentsCancel({ orgId: s.config.orgId, deploymentId: c.args[0] as string });
      return c.print(res, () => `Canceled ${res.deployment.deploymentId} (${res.deployment.target}).`);
    },
  },
  {
    path: ['projects', 'settings'],
    jsonLast: true,
    summary: "show or change a project's settings: framework, build, output, root directory, repository, branch",
    details:
      'Without options, prints them. --no-build-command, --no-install-command, --no-output-directory go back to\n' +
      "the framework's default; --no-repo unlinks the repository (deployments then come from platform deploy).",
    options: {
      project: PROJECT,
      framework: {
        type: 'string',
        value: 'static|node|nextjs',
        help: 'the framework',
        complete: ['static', 'node', 'nextjs'],
      },
      'build-command': { type: 'string', value: 'CMD', help: 'the build command' },
      'no-build-command': { type: 'boolean', help: "the framework's build command" },
      'install-command': { type: 'string', value: 'CMD', help: 'the install command' },
      'no-install-command': { type: 'boolean', help: "the framework's install command" },
      'output-directory': { type: 'string', value: 'DIR', help: 'the folder the build writes' },
      'no-output-directory': { type: 'boolean', help: "the framework's output folder" },
      'root-directory': { type: 'string', value: 'DIR', help: 'the folder of the repository that is built' },
      repo: { type: 'string', value: 'R', help: 'link this repository (name or id); pushes deploy', complete: 'repo' },
      'no-repo': { type: 'boolean', help: 'unlink the repository' },
      'production-branch': {
        type: 'string',
        value: 'B',
        help: 'pushes to it deploy to production',
        complete: 'branch',
      },
    },
    examples: [
      'platform projects settings --project web',
      'platform projects settings --framework static --build-command "npm run build" --output-directory public',
      'platform projects settings --repo api --production-branch main',
    ],
    run: async (c) => {
      const framework = parseFramework(c.str('framework'));
      const buildCommand = setting(c, 'build-command');
      const installCommand = setting(c, 'install-command');
      const outputDirectory = setting(c, 'output-directory');
      const repoName = setting(c, 'repo');
      const s = await c.session();
      const project = await requireProject(s, c.str('project'));
      const orgId = s.config.orgId;
      const repos = repoName || project.repoId ? (await s.api.getRepos({ orgId })).repos : [];
      let repoId: string | null | undefined = repoName === null ? null : undefined;
      if (repoName) {
        const found = repos.find((r) => r.name === repoName || r.resourceId === repoName);
        if (!found) throw new UsageError(`No repository ${repoName} in this organization (platform repo list).`);
        repoId = found.resourceId;
      }
      const body = Object.fromEntries(
        Object.entries({
          framework,
          buildCommand,
          installCommand,
          outputDirectory,
          rootDirectory: c.str('root-directory'),
          repoId,
          productionBranch: c.str('production-branch'),
        }).filter(([, v]) => v !== undefined),
      );
      const changed = Object.keys(body).length > 0;
      const current = changed
        ? (await s.api.patchProjectsByProjectId({ orgId, projectId: project.projectId, body })).project
        : project;
      const repo = repos.find((r) => r.resourceId === current.repoId);
      const lines = [
        ['framework', current.framework],
        ['build', current.buildCommand ?? '(the framework default)'],
        ['install', current.installCommand ?? '(the framework default)'],
        ['output', current.outputDirectory ?? '(the framework default)'],
        ['root', current.rootDirectory || '.'],
        ['repository', repo ? repo.name : (current.repoId ?? '(none)')],
        ['production', current.productionBranch],
      ];
      c.io.stdout(
        `${changed ? 'Saved the settings' : 'Settings'} of ${current.slug}:\n${lines.map(([k, v]) => `  ${String(k).padEnd(11)}${v}`).join('\n')}\n`,
      );
      return 0;
    },
  },
];
