/**
 * What may reach git as a branch or tag name, a revision or a path. Checked before any git call,
 * by the routes (for their 400s) and again by the adapters, so nothing option-like or escaping the
 * tree is ever handed to git.
 */

/** Any character below 0x20, or DEL. */
const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** git check-ref-format's rules for one name under `refs/heads/` or `refs/tags/`, plus our limit of 256. */
export function refNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 256) return 'must be 1-256 characters';
  if (name.startsWith('-')) return "can't start with -";
  if (name === '@' || name.includes('@{')) return "can't be @ or contain @{";
  if (hasControl(name) || /[ ~^:?*[\\]/.test(name)) {
    return "can't contain spaces, control characters or ~ ^ : ? * [ \\";
  }
  if (name.includes('..')) return "can't contain ..";
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return "can't have empty parts";
  if (name.endsWith('.')) return "can't end with .";
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return "can't have a part starting with .";
    if (part.endsWith('.lock')) return "can't have a part ending with .lock";
  }
  return undefined;
}

export const isRefName = (name: string) => refNameProblem(name) === undefined;

/** A commit id as the API takes it: 7 to 40 lowercase hex characters. */
export const isCommitId = (rev: string) => /^[0-9a-f]{7,40}$/.test(rev);

/** The longest path a web commit or a read takes (bytes of UTF-8), and the longest part of it. */
export const MAX_PATH_BYTES = 4096;
const MAX_PART_BYTES = 255;

/** Why `path` can't be a file's path in a repository, or undefined when it can. */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.includes('\0')) return 'contains a NUL character';
  if (path.startsWith('/')) return 'must be relative to the repository root';
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  const parts = path.split('/');
  if (parts.some((p) => p === '')) return 'has an empty folder name';
  if (parts.some((p) => p === '.' || p === '..')) return "can't contain . or .. parts";
  if (parts.some((p) => p.toLowerCase() === '.git')) return "can't be inside .git";
  if (parts.some((p) => Buffer.byteLength(p) > MAX_PART_BYTES)) return `has a part longer than ${MAX_PART_BYTES} bytes`;
  if (hasControl(path)) return 'contains a control character';
  return undefined;
}
