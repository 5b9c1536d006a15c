import { ApiError, type Client, createClient } from '../client';
import type { Project } from '../shared/schemas/project';
import { type Config, type Env, readConfig } from './config';

/** What a command reads and writes: the process's streams and environment, or a test's. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
  cwd: string;
  /** stderr is a terminal: show the animated progress indicator. */
  tty: boolean;
  /** Standard input, read whole (for `login --token -` and `env set KEY` without a value). */
  stdin: () => Promise<string>;
  /** Wait between two polls of a log that had nothing new (ms). */
  pollMs?: number;
  fetch?: typeof fetch;
  /** Ends `--follow` of runtime logs (Ctrl-C). */
  signal?: AbortSignal;
}

/** A mistake in the command line itself: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A refusal of the command line (not of the API): printed as is, exit code 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export const USER_AGENT = 'platform-cli';

export interface Session {
  api: Client;
  config: Config;
  io: Io;
}

export function session(io: Io): Session {
  const config = readConfig(io.env);
  if (!config.baseUrl || !config.token || !config.orgId) {
    throw new CliError('Not logged in. Run: platform login --url <base URL> --token <token or API key>');
  }
  const api = createClient({ baseUrl: config.baseUrl, token: config.token, fetch: io.fetch, userAgent: USER_AGENT });
  return { api, config: config as Config, io };
}

export async function listProjects(s: Session, summary = false): Promise<(Project & { productionHost?: string })[]> {
  const res = (await s.api.getProjects({ orgId: s.config.orgId, include: summary ? 'summary' : undefined })) as {
    projects: (Project & { productionHost?: string })[];
  };
  return res.projects;
}

/** The project named by slug or id; undefined when the organization has none such. */
export async function findProject(s: Session, ref: string): Promise<Project | undefined> {
  return (await listProjects(s)).find((p) => p.projectId === ref || p.slug === ref);
}

export async function requireProject(s: Session, ref: string | undefined): Promise<Project> {
  const name = ref ?? s.io.env.PLATFORM_PROJECT;
  if (!name) throw new UsageError('Name the project: --project <slug or id> (or PLATFORM_PROJECT).');
  const project = await findProject(s, name);
  if (!project) throw new ApiError(404, `Project ${name} not found in this organization.`);
  return project;
}

const LOOPBACK_URL = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/** What to do when the API did not answer at all: a platform on this machine is most likely stopped. */
export const unreachableHint = (baseUrl: string | undefined) =>
  baseUrl && LOOPBACK_URL.test(baseUrl)
    ? 'Is the local platform running? Start it with npm start (in the platform folder), then try again.'
    : 'Check the address (platform login --url <base URL>) and the network.';

/** A deployment host as a link: the local edge answers plain HTTP, hosted ones HTTPS. */
export const linkOf = (host: string) =>
  /(^|\.)localhost(:\d+)?$|^127\.0\.0\.1(:\d+)?$/.test(host) ? `http://${host}` : `https://${host}`;

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** `1 file`, `2 files`. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Rows as aligned columns, the first row being the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}
