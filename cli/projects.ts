import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAMEWORKS, type Framework, type Project } from '../shared/domains/projects/schema';
import { LINK_FILE } from './config';
import { linkOf, listProjects, type Session, table, UsageError } from './context';

/** `--framework`, checked before any request: a value the API would refuse is a usage mistake. */
export function parseFramework(value: string | undefined): Framework | undefined {
  if (value === undefined) return undefined;
  if (!(FRAMEWORKS as readonly string[]).includes(value)) {
    throw new UsageError(`Unknown framework ${value}: use ${FRAMEWORKS.join(', ')}.`);
  }
  return value as Framework;
}

export async function projectsList(s: Session, json: boolean): Promise<number> {
  const projects = await listProjects(s, true);
  if (json) {
    s.io.stdout(`${JSON.stringify(projects, null, 2)}\n`);
    return 0;
  }
  if (projects.length === 0) {
    s.io.stdout('No projects yet. Create one: platform projects create <slug>\n');
    return 0;
  }
  const rows = projects.map((p) => [
    p.slug,
    p.projectId,
    p.framework ?? '',
    p.productionHost ? linkOf(p.productionHost) : '-',
  ]);
  s.io.stdout(`${table([['SLUG', 'ID', 'FRAMEWORK', 'PRODUCTION'], ...rows], s.io)}\n`);
  return 0;
}

interface CreateOptions {
  name?: string;
  framework?: Framework;
  location?: string;
}

export async function createProject(s: Session, slug: string, options: CreateOptions): Promise<Project> {
  const res = (await s.api.postProjects({
    orgId: s.config.orgId,
    body: {
      name: options.name ?? slug,
      slug,
      framework: options.framework,
      location: options.location,
    },
  })) as { project: Project };
  return res.project;
}

export async function projectsCreate(s: Session, slug: string, options: CreateOptions): Promise<number> {
  const project = await createProject(s, slug, options);
  s.io.stdout(
    `Created project ${project.slug} (${project.projectId}), ${project.framework}, in ${project.location}.\n`,
  );
  return 0;
}

/**
 * Lists the link file in the folder's `.gitignore` (made when missing), unless a line names it
 * already (`.platform.json`, `/.platform.json`): the link is this machine's, not the repository's.
 * Answers whether it added the line.
 */
export function ignoreLinkFile(folder: string): boolean {
  const file = join(folder, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const names = new Set([LINK_FILE, `/${LINK_FILE}`, `**/${LINK_FILE}`]);
  if (text.split(/\r?\n/).some((line) => names.has(line.trim()))) return false;
  writeFileSync(file, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${LINK_FILE}\n`);
  return true;
}
