import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';
import { invalid } from '../../kernel/ground/errors';
import { normalizeHost } from '../host-registry/registry';
import { appsDomain } from '../projects/hosts';
import { DOMAIN_MESSAGES } from './records';
import { isPublicSuffix } from './suffix';

/**
 * Hostnames of custom domains as the domains group takes them (apart from records.ts, which the
 * projects group bundles: the public suffix list stays in the domains group's bundle).
 */
/** The apps domain without its port: hostnames under it are the platform's own. */
const platformDomain = () => normalizeHost(appsDomain());

/**
 * A hostname as the platform keeps it: trimmed, lowercased, without a trailing dot, punycoded; or
 * 400 with what is wrong. At most 253 characters, labels of 1-63 letters, digits and hyphens (not
 * at either end), two labels at least, no wildcard, no IP literal, nothing under the apps domain,
 * no public suffix (`co.uk`, `github.io`).
 */
export function normalizeHostname(input: string): string {
  const raw = input.trim().replace(/\.$/, '');
  if (raw.includes('*')) throw invalid(DOMAIN_MESSAGES.wildcard);
  if (isIP(raw) || isIP(raw.replace(/^\[|\]$/g, ''))) throw invalid(DOMAIN_MESSAGES.ipLiteral);
  if (raw.length > 253) throw invalid(DOMAIN_MESSAGES.tooLong);
  const ascii = domainToASCII(raw.toLowerCase());
  if (!ascii) throw invalid(DOMAIN_MESSAGES.invalid);
  if (ascii.length > 253) throw invalid(DOMAIN_MESSAGES.tooLong);
  const labels = ascii.split('.');
  if (labels.some((l) => l.length > 63)) throw invalid(DOMAIN_MESSAGES.labelTooLong);
  if (labels.length < 2) throw invalid(DOMAIN_MESSAGES.twoLabels);
  if (labels.some((l) => !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(l))) throw invalid(DOMAIN_MESSAGES.invalid);
  if (/^\d+$/.test(labels[labels.length - 1] as string)) throw invalid(DOMAIN_MESSAGES.ipLiteral);
  const apps = platformDomain();
  if (ascii === apps || ascii.endsWith(`.${apps}`)) throw invalid(DOMAIN_MESSAGES.appsDomain(apps));
  if (isPublicSuffix(ascii)) throw invalid(DOMAIN_MESSAGES.publicSuffix(ascii));
  return ascii;
}

/** The registrable domain (public suffix list): the zone that holds the hostname's records. */
export function zoneOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: false }) ?? hostname;
}
