import { ApiError, type Client, createClient } from '../client';
import type { Project } from '../shared/domains/projects/schema';
import { type Config, type Env, type Link, readConfig, readLink } from './config';
import { table as sizedTable } from './output';

/** What a command reads and writes: the process's streams and environment, or a test's. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
  cwd: string;
  /** stdout and stderr are terminals: show the animated progress indicator. */
  tty: boolean;
  /** The terminal's width when stdout is one (tables are sized to it); unset: whole tab-separated cells. */
  columns?: number;
  /** Colour statuses (stdout a terminal, no NO_COLOR, no --no-color). */
  color?: boolean;
  /** Standard input, read whole (for `login --token -` and `env set KEY` without a value). */
  stdin: () => Promise<string>;
  /** Wait between two polls of a log that had nothing new (ms). */
  pollMs?: number;
  fetch?: typeof fetch;
  /** Ends `--follow` of runtime logs (Ctrl-C). */
  signal?: AbortSignal;
  /**
   * The program and script that run this command line (`node …/bin.cjs`), for what calls it back
   * (git's credential helper); default: this folder's `bin.cjs` under this Node.
   */
  self?: string[];
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
  /** The folder's `.platform.json`, when it is linked (`platform link`). */
  link?: Link;
}

/** A profile saved by a person who belongs to no organization yet has no `orgId`. */
const NO_ORG = 'You belong to no organization yet. Create one: platform org create --slug SLUG --name NAME';

export function session(io: Io, profile?: string, options: { withoutOrg?: boolean } = {}): Session {
  const config = readConfig(io.env, profile);
  if (config.baseUrl && config.token && !config.orgId && !options.withoutOrg) throw new CliError(NO_ORG);
  if (!config.baseUrl || !config.token || (!config.orgId && !options.withoutOrg)) {
    const named = profile ? ` (profile ${profile})` : '';
    throw new CliError(
      `Not logged in${named}. Run: platform login --url <base URL> --token <token or API key>${profile ? ` --profile ${profile}` : ''}`,
    );
  }
  const api = createClient({ baseUrl: config.baseUrl, token: config.token, fetch: io.fetch, userAgent: USER_AGENT });
  return { api, config: config as Config, io, link: readLink(io.cwd) };
}

/**
 * The session of a command: the profile's, in the organization `--org` names (an id or a slug the
 * token has), else the linked folder's, else the profile's.
 */
export async function openSession(
  io: Io,
  options: { profile?: string; org?: string; withoutOrg?: boolean } = {},
): Promise<Session> {
  const s = session(io, options.profile, { withoutOrg: options.withoutOrg });
  const org = options.org ?? (io.env.PLATFORM_ORG ? undefined : s.link?.orgId);
  if (!org || org === s.config.orgId || org === s.config.orgSlug) return s;
  const { me } = await s.api.getMe();
  const found = me.orgs.find((o) => o.orgId === org || o.slug === org);
  if (!found)
    throw new CliError(`This token has no organization ${org}. It has: ${me.orgs.map((o) => o.slug).join(', ')}.`);
  return { ...s, config: { ...s.config, orgId: found.orgId, orgSlug: found.slug } };
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
  const name = ref ?? s.io.env.PLATFORM_PROJECT ?? s.link?.projectId;
  if (!name)
    throw new UsageError(
      'Name the project: --project <slug or id> (or PLATFORM_PROJECT). Or link this folder: platform link --project P.',
    );
  const project = await findProject(s, name);
  if (!project) throw new ApiError(404, `Project ${name} not found in this organization.`);
  return project;
}

const LOOPBACK_URL = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/** What to do when the API did not answer at all: a platform on this machine is most likely stopped. */
export const unreachableHint = (baseUrl: string | undefined) =>
  baseUrl && LOOPBACK_URL.test(baseUrl)
    ? 'Is the local platform running? Start it with npm start (in the platform folder, with the same PORT), then try again.'
    : 'Check the address (platform login --url <base URL>) and the network.';

/** A deployment host as a link: the local edge answers plain HTTP, hosted ones HTTPS. */
export const linkOf = (host: string) =>
  /(^|\.)localhost(:\d+)?$|^127\.0\.0\.1(:\d+)?$/.test(host) ? `http://${host}` : `https://${host}`;

/**
 * Waits `ms`, or less when `signal` aborts. Its abort listener goes when the wait ends: a poll
 * loop sleeps many times on one signal (one listener left per sleep was Node's
 * MaxListenersExceededWarning after ten polls of deploy and job watch).
 */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** `1 file`, `2 files`. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Rows as aligned columns (the first row being the header), sized to the terminal's width. */
export const table = (rows: string[][], io?: Pick<Io, 'columns' | 'color'>, keep: number[] = []) =>
  sizedTable(rows, io, keep);
