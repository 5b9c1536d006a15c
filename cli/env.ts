import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENV_TARGETS, type EnvTarget, type EnvVar } from '../shared/domains/projects/env-schema';
import type { Project } from '../shared/domains/projects/schema';
import { CliError, count, type Session, table, UsageError } from './context';

export function parseTargets(value: string | undefined): EnvTarget[] {
  if (value === undefined) return [...ENV_TARGETS];
  const targets = value.split(',').map((t) => t.trim());
  for (const t of targets) {
    if (!(ENV_TARGETS as readonly string[]).includes(t)) {
      throw new UsageError(`Unknown target ${t}: use ${ENV_TARGETS.join(', ')}.`);
    }
  }
  return [...new Set(targets)] as EnvTarget[];
}

async function vars(s: Session, project: Project): Promise<EnvVar[]> {
  const res = (await s.api.getProjectsEnv({ orgId: s.config.orgId, projectId: project.projectId })) as {
    vars: EnvVar[];
  };
  return res.vars;
}

export async function envList(s: Session, project: Project, json: boolean): Promise<number> {
  const list = await vars(s, project);
  if (json) {
    s.io.stdout(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  if (list.length === 0) {
    s.io.stdout(`No variables in ${project.slug}.\n`);
    return 0;
  }
  const rows = list.map((v) => [v.key, v.targets.join(','), v.sensitive ? '(sensitive)' : (v.value ?? '')]);
  s.io.stdout(`${table([['KEY', 'TARGETS', 'VALUE'], ...rows], s.io)}\n`);
  return 0;
}

interface SetOptions {
  targets: EnvTarget[];
  /** Readable back (`env ls`, `env pull`); variables are sensitive unless said otherwise. */
  plain: boolean;
  /** Go on when other targets of the key would lose it. */
  force?: boolean;
}

export async function envSet(
  s: Session,
  project: Project,
  key: string,
  value: string | undefined,
  options: SetOptions,
): Promise<number> {
  // A key has one value and one set of targets: setting it for fewer targets takes it from the others.
  const existing = (await vars(s, project)).find((x) => x.key === key);
  const losing = (existing?.targets ?? []).filter((t) => !options.targets.includes(t));
  if (losing.length > 0 && !options.force) {
    const suffix = options.targets.length === 1 ? `_${options.targets[0]?.toUpperCase()}` : '_2';
    throw new CliError(
      `${key} is set for ${existing?.targets.join(', ')} in ${project.slug}, one value for all of them: setting it ` +
        `for ${options.targets.join(', ')} removes it from ${losing.join(', ')}. Add --force to do so, or use a ` +
        `separate key (${key}${suffix}).`,
    );
  }
  // Without a value on the command line (where shell history keeps it), it is read from stdin.
  const v = value ?? (await s.io.stdin()).replace(/\r?\n$/, '');
  await s.api.putProjectsEnvByKey({
    orgId: s.config.orgId,
    projectId: project.projectId,
    key,
    body: { value: v, targets: options.targets, sensitive: !options.plain },
  });
  const kind = options.plain ? 'plain' : 'sensitive';
  const removed = losing.length > 0 ? ` Removed it from ${losing.join(', ')}.` : '';
  s.io.stdout(`Set ${key} (${kind}) for ${options.targets.join(', ')} in ${project.slug}.${removed}\n`);
  return 0;
}

export async function envRemove(s: Session, project: Project, key: string): Promise<number> {
  await s.api.deleteProjectsEnvByKey({ orgId: s.config.orgId, projectId: project.projectId, key });
  s.io.stdout(`Removed ${key} from ${project.slug}.\n`);
  return 0;
}

/** A dotenv value: double-quoted, with what would end or bend the quotes escaped. */
const dotenvValue = (value: string) =>
  `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;

/**
 * Writes the target's variables to a dotenv file (0600). Sensitive values are never answered by
 * the API, so they are listed as comments: set them by hand where they are needed.
 */
export async function envPull(s: Session, project: Project, file: string, target: EnvTarget): Promise<number> {
  const list = (await vars(s, project)).filter((v) => v.targets.includes(target));
  const lines = [`# ${project.slug}, target ${target}: written by platform env pull. Do not commit.`];
  let sensitive = 0;
  for (const v of list) {
    if (v.sensitive || v.value === null) {
      sensitive++;
      lines.push(`# ${v.key} is sensitive: its value can't be read back.`);
    } else lines.push(`${v.key}=${dotenvValue(v.value)}`);
  }
  const path = resolve(s.io.cwd, file);
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
  const note = sensitive ? ` (${sensitive} sensitive left out)` : '';
  s.io.stdout(`Wrote ${count(list.length - sensitive, 'variable')} to ${file}${note}.\n`);
  return 0;
}
