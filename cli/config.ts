import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * Where `login` keeps the base URL, the token and the organization: `$XDG_CONFIG_HOME/platform/
 * config.json` (default `~/.config`), readable by the user only, holding several profiles (the
 * local platform, a deployed stack…) and which one is in use. `--profile NAME` or
 * `PLATFORM_PROFILE` picks another for one command. `PLATFORM_URL`, `PLATFORM_TOKEN` and
 * `PLATFORM_ORG` (an org id) override the profile, for CI.
 */
export interface Config {
  baseUrl: string;
  token: string;
  orgId: string;
  orgSlug?: string;
  /**
   * Per organization, the password of the git credential `repo clone` made for this profile when
   * its token is a person's access token (git over HTTPS takes API keys and git credentials only).
   */
  gitPasswords?: Record<string, string>;
}

export interface ConfigFile {
  current: string;
  profiles: Record<string, Config>;
}

export type Env = Record<string, string | undefined>;

export const DEFAULT_PROFILE = 'default';

export function configFile(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'platform', 'config.json');
}

/** The whole file (a file from before profiles, one flat config, is the default profile). */
export function readConfigFile(env: Env): ConfigFile {
  const file = configFile(env);
  if (!existsSync(file)) return { current: DEFAULT_PROFILE, profiles: {} };
  let stored: Partial<ConfigFile> & Partial<Config>;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file} is not valid JSON: log in again (platform login).`);
  }
  if (!stored.profiles) {
    const { baseUrl, token, orgId, orgSlug } = stored;
    return baseUrl
      ? { current: DEFAULT_PROFILE, profiles: { [DEFAULT_PROFILE]: { baseUrl, token, orgId, orgSlug } as Config } }
      : { current: DEFAULT_PROFILE, profiles: {} };
  }
  return { current: stored.current ?? DEFAULT_PROFILE, profiles: stored.profiles };
}

/** The profile a command uses: `--profile`, else `PLATFORM_PROFILE`, else the file's current one. */
export const profileName = (env: Env, profile?: string) =>
  profile ?? env.PLATFORM_PROFILE ?? readConfigFile(env).current;

export function readConfig(env: Env, profile?: string): Partial<Config> {
  const name = profileName(env, profile);
  const stored: Partial<Config> = readConfigFile(env).profiles[name] ?? {};
  return {
    ...stored,
    ...(env.PLATFORM_URL ? { baseUrl: env.PLATFORM_URL } : {}),
    ...(env.PLATFORM_TOKEN ? { token: env.PLATFORM_TOKEN } : {}),
    ...(env.PLATFORM_ORG ? { orgId: env.PLATFORM_ORG, orgSlug: undefined } : {}),
  };
}

export function writeConfigFile(env: Env, content: ConfigFile): string {
  const file = configFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write: the tokens are for this user only.
  chmodSync(file, 0o600);
  return file;
}

/** Stores a profile; the first one stored becomes the current one. */
export function writeConfig(env: Env, config: Config, profile?: string): string {
  const content = readConfigFile(env);
  const name = profileName(env, profile);
  if (Object.keys(content.profiles).length === 0) content.current = name;
  content.profiles[name] = config;
  return writeConfigFile(env, content);
}

/** Forgets a profile; the file goes with the last one. */
export function removeConfig(env: Env, profile?: string): boolean {
  const file = configFile(env);
  if (!existsSync(file)) return false;
  const content = readConfigFile(env);
  const name = profileName(env, profile);
  if (!content.profiles[name]) return false;
  delete content.profiles[name];
  if (Object.keys(content.profiles).length === 0) rmSync(file);
  else writeConfigFile(env, content);
  return true;
}

/** What `platform link` writes in a folder: the defaults of `--org` and `--project` under it. */
export interface Link {
  orgId: string;
  orgSlug?: string;
  projectId?: string;
  projectSlug?: string;
}

/** The link's file: one of the platform's own files, never deployed (shared/ports/builds/platform-files.ts). */
export const LINK_FILE = '.platform.json';

/** The nearest `.platform.json` from the folder up, with where it is. */
export function readLink(cwd: string): (Link & { file: string }) | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const file = join(dir, LINK_FILE);
    if (existsSync(file)) {
      try {
        const link = JSON.parse(readFileSync(file, 'utf8')) as Link;
        if (typeof link.orgId === 'string') return { ...link, file };
      } catch {
        // Not ours: keep looking above.
      }
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export function writeLink(cwd: string, link: Link): string {
  const file = join(resolve(cwd), LINK_FILE);
  writeFileSync(file, `${JSON.stringify(link, null, 2)}\n`);
  return file;
}
