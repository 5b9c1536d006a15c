import { basename, resolve } from 'node:path';
import { ApiError } from '../client';
import type { Deployment } from '../shared/domains/deployments/schema';
import type { Framework, Project } from '../shared/domains/projects/schema';
import { detectFramework } from '../shared/ports/builds/detect';
import { CliError, count, findProject, linkOf, type Session, UsageError } from './context';
import { sourceMeta } from './git';
import { streamBuildLog } from './logs';
import { packFolder } from './pack';
import { Progress } from './progress';
import { createProject } from './projects';

interface DeployOptions {
  project?: string;
  prod: boolean;
  force: boolean;
  framework?: Framework;
}

interface Upload {
  uploadId: string;
  url: string;
  headers: Record<string, string>;
}

interface Created {
  deployment: { deploymentId: string; host?: string; target: string };
  existing: boolean;
}

const kb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;

/** The folder's name as a project slug (2-40 lowercase letters, digits, hyphens), if it makes one. */
function slugOf(folder: string): string | undefined {
  const slug = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/.test(slug) ? slug : undefined;
}

/** `--project`, else `PLATFORM_PROJECT`, else the folder's name; created when the organization has none such. */
async function projectFor(s: Session, folder: string, options: DeployOptions): Promise<Project> {
  const ref = options.project ?? s.io.env.PLATFORM_PROJECT ?? s.link?.projectId ?? slugOf(folder);
  if (!ref) throw new UsageError(`Name the project: --project <slug> (${basename(folder)} is not a valid slug).`);
  const found = await findProject(s, ref);
  if (found) {
    if (!options.framework || options.framework === found.framework) return found;
    const res = (await s.api.patchProjectsByProjectId({
      orgId: s.config.orgId,
      projectId: found.projectId,
      body: { framework: options.framework },
    })) as { project: Project };
    s.io.stdout(
      `Changed the framework of ${found.slug} from ${found.framework ?? 'none'} to ${res.project.framework}.\n`,
    );
    return res.project;
  }
  const framework = options.framework ?? detectFramework(folder);
  const project = await createProject(s, ref, { framework });
  s.io.stdout(`Created project ${project.slug} (${project.projectId}), framework ${project.framework}.\n`);
  return project;
}

/**
 * `deploy [folder]`: packs the folder (gzipped tar, .gitignore honoured), uploads it through the
 * presigned link, creates the deployment with where the source came from (`meta`), then follows
 * the build log to its end. Exit code 0 when the deployment is ready (or skipped: nothing
 * changed), 1 when the build failed, was canceled or expired.
 */
export async function deploy(s: Session, folderArg: string | undefined, options: DeployOptions): Promise<number> {
  const folder = resolve(s.io.cwd, folderArg ?? '.');
  const orgId = s.config.orgId;
  // The folder first: a missing, empty or wholly ignored one must not leave a new project behind.
  const packed = await packFolder(folder);
  const project = await projectFor(s, folder, options);
  for (const skipped of packed.skipped) {
    s.io.stderr(`Left out ${skipped}: archives carry plain files and folders only.\n`);
  }
  s.io.stdout(`Packed ${count(packed.files, 'file')} (${kb(packed.archive.length)}) from ${folderArg ?? '.'}\n`);

  const upload = (await s.api.postProjectsUploads({
    orgId,
    projectId: project.projectId,
    body: { size: packed.archive.length },
  })) as Upload;
  let put: Response;
  try {
    put = await (s.io.fetch ?? fetch)(upload.url, { method: 'PUT', headers: upload.headers, body: packed.archive });
  } catch (err) {
    throw new CliError(`The upload failed: ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`);
  }
  if (!put.ok) throw new CliError(`The upload failed: the storage answered ${put.status}.`);

  const target = options.prod ? 'production' : 'preview';
  const created = (await s.api.postProjectsDeployments({
    orgId,
    projectId: project.projectId,
    body: { source: 'upload', uploadId: upload.uploadId, target, force: options.force, meta: sourceMeta(folder) },
  })) as Created;
  const { deploymentId, host } = created.deployment;
  s.io.stdout(`Deployment ${deploymentId} of ${project.slug} (${target})${host ? `: ${linkOf(host)}` : ''}\n`);

  const progress = new Progress(s.io.stderr, s.io.tty);
  let result: Awaited<ReturnType<typeof streamBuildLog>>;
  try {
    result = await streamBuildLog(s, deploymentId, { follow: true, progress });
  } finally {
    progress.stop();
  }
  if (!result.done) throw new CliError(`Stopped following ${deploymentId}: platform logs ${deploymentId} --follow`);
  return finish(s, deploymentId, result, progress.seconds());
}

async function finish(
  s: Session,
  deploymentId: string,
  result: { status: string; error: string | null },
  took: string,
): Promise<number> {
  if (result.status !== 'ready' && result.status !== 'skipped') {
    s.io.stderr(`Deployment ${deploymentId} ${result.status}: ${result.error ?? 'no reason given'}\n`);
    return 1;
  }
  const read = (await s.api.getDeploymentsByDeploymentId({ orgId: s.config.orgId, deploymentId })) as {
    deployment: Deployment;
    productionHost?: string;
  };
  const d = read.deployment;
  if (result.status === 'skipped') {
    s.io.stdout(`Nothing changed since ${d.previousDeploymentId ?? 'the last deployment'}: skipped.\n`);
  }
  s.io.stdout(`Ready in ${took}: ${d.host ? linkOf(d.host) : deploymentId}\n`);
  if (d.target === 'production' && read.productionHost) s.io.stdout(`Production: ${linkOf(read.productionHost)}\n`);
  return 0;
}

/**
 * `POST …/promote`: production serves the deployment, as it was built. A preview built with
 * variables other than production's is refused (409) unless `force`; the refusal says how on.
 */
export async function promoteDeployment(s: Session, deploymentId: string, force = false) {
  try {
    return (await s.api.postDeploymentsPromote({
      orgId: s.config.orgId,
      deploymentId,
      body: force ? { force } : {},
    })) as { deployment: Deployment; productionHost: string };
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && /promote it with force/.test(err.message)) {
      throw new CliError(
        `${err.message}\nBuild it with production's variables: platform deploy --prod. Or promote it as it is: ` +
          `platform promote ${deploymentId} --force`,
      );
    }
    throw err;
  }
}

export async function promote(s: Session, deploymentId: string, force = false): Promise<number> {
  const res = await promoteDeployment(s, deploymentId, force);
  s.io.stdout(`Promoted ${deploymentId} to production: ${linkOf(res.productionHost)}\n`);
  return 0;
}
