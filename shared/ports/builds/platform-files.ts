/**
 * Files the platform's own tools write into a project's folder (the CLI's `.platform.json` of
 * `platform link`, with the organization and project ids): never part of a deployment. The CLI
 * leaves them out of the archive it packs, and a build drops them, at any depth, from whatever
 * source it unpacks (an upload by any client, a commit), so they are never built or served.
 */
export const PLATFORM_FILES: readonly string[] = ['.platform.json'];

/** Whether an archive entry's path names one of those files. */
export const isPlatformFile = (path: string): boolean => PLATFORM_FILES.includes(path.split(/[\\/]/).pop() as string);
