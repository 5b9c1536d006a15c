import type { Readable } from 'node:stream';
import type { GitHttpRequest, GitHttpResponse } from '../../shared/ports/git/http-backend';
import type { PushRules } from './protect';
import type { RefUpdate } from './receive-pack';

/* What git over HTTPS (./serve.ts) and its LFS endpoints (./lfs.ts) both speak of, apart from either. */

/** Who a git request's password names, and what it may do there. */
export interface GitCaller {
  /** For the reflog: the person's or key's id. */
  user: string;
  scopes: string[];
  /** An owner or admin of the organization (may force an LFS unlock). */
  admin?: boolean;
}

export interface GitRepo {
  repoId: string;
  rules: PushRules;
}

/** What the endpoint needs of the platform: the same code serves the local gateway and Lambda. */
export interface GitEndpointDeps {
  /** The organization's id for the URL's `<orgId>`, which may also be its slug (unknown: unchanged). */
  orgIdOf(ref: string): Promise<string>;
  /** The caller a Basic password names in the organization (any key or git credential), if any. */
  authenticate(orgId: string, password: string): Promise<GitCaller | undefined>;
  findRepo(orgId: string, name: string): Promise<GitRepo | undefined>;
  /** Passes the exchange on to the repository's storage (the git port's transport). */
  transport(repoId: string, req: GitHttpRequest): Promise<GitHttpResponse>;
  /** The repository's branches and tags (full ref names) with their commits, after a push. */
  refs(repoId: string): Promise<Map<string, string>>;
  /** The refs a push moved (branch pushes deploy linked projects; the refs index follows). */
  pushed(orgId: string, repo: GitRepo, moved: RefUpdate[], caller: GitCaller): Promise<void>;
}

export interface GitRequest {
  method: string;
  /** The path from `/git/` on: `/git/<orgId or slug>/<name>.git/<service>`. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  body: Readable;
}

export interface GitAnswer {
  status: number;
  headers: Record<string, string>;
  body: Readable | Buffer;
}
