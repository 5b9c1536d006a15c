import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Where `login` keeps the base URL, the token and the organization: `$XDG_CONFIG_HOME/platform/
 * config.json` (default `~/.config`), readable by the user only. `PLATFORM_URL`, `PLATFORM_TOKEN`
 * and `PLATFORM_ORG` (an org id) override it, for CI.
 */
export interface Config {
  baseUrl: string;
  token: string;
  orgId: string;
  orgSlug?: string;
}

export type Env = Record<string, string | undefined>;

export function configFile(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'platform', 'config.json');
}

export function readConfig(env: Env): Partial<Config> {
  const file = configFile(env);
  let stored: Partial<Config> = {};
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Config>;
    } catch {
      throw new Error(`${file} is not valid JSON: log in again (platform login).`);
    }
  }
  return {
    ...stored,
    ...(env.PLATFORM_URL ? { baseUrl: env.PLATFORM_URL } : {}),
    ...(env.PLATFORM_TOKEN ? { token: env.PLATFORM_TOKEN } : {}),
    ...(env.PLATFORM_ORG ? { orgId: env.PLATFORM_ORG, orgSlug: undefined } : {}),
  };
}

export function writeConfig(env: Env, config: Config): string {
  const file = configFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write: the token is for this user only.
  chmodSync(file, 0o600);
  return file;
}

export function removeConfig(env: Env): boolean {
  const file = configFile(env);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}
