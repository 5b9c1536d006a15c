/**
 * The messages custom domains of projects and mail domains share about names organizations claim:
 * any number may claim one, the first to prove ownership (its TXT record) holds it.
 */
export const CLAIM_MESSAGES = {
  publicSuffix: (name: string) => `${name} is a public suffix, shared by many owners: add a name registered under it.`,
  claimedElsewhere: (name: string) =>
    `${name} was verified by another organization: its DNS records prove they own it.`,
} as const;
