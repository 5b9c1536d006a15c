/**
 * The one place the Lambda code (shared/, functions/) reads the environment, besides the settings
 * `shared/kernel/config.ts` reads once at start; the layering test holds it. Read when asked, not at import, so the local platform and tests may set a variable
 * after a module loaded. Which variables exist: docs/aws.md (deployed) and docs/local-platform.md.
 */
export const readEnv = (name: string): string | undefined => process.env[name];

/** A variable the code can't run without: its absence is an error that names it. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set.`);
  return value;
}

/** The whole environment, for the child processes the local adapters start. */
export const processEnv = (): NodeJS.ProcessEnv => process.env;
