import { getDomain } from 'tldts';

/**
 * Whether the name is a public suffix of the Public Suffix List (ICANN's `co.uk` and the private
 * section's `github.io` alike): names under it belong to different owners, so nobody adds it.
 * Alone in its module with the list: custom domains and mail domains (lazily) load it, nothing else.
 */
export function isPublicSuffix(name: string): boolean {
  return getDomain(name, { allowPrivateDomains: true }) === null;
}
