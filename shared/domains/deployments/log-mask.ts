import { log } from '../../kernel/ground/log';
import { secrets } from '../../ports/secrets';
import { resolveVars } from '../projects/env';
import type { DeploymentRecord } from './schema';

/**
 * Masking of sensitive values in build and runtime logs, as CI systems do: `logs:read` must never
 * show what `env:read` guards. The sensitive values a deployment was launched with are sealed on
 * its record (`logMask`, an envelope of the secrets port bound to the deployment); the log routes
 * open it and replace every occurrence by `***` before a line leaves the API.
 *
 * - Values shorter than MIN_MASKED_LENGTH are not masked: `***` in place of every `1` or `on`
 *   would wreck the log and show the value anyway (by the gaps it leaves).
 * - A value of several lines is masked line by line (a log line holds one of them).
 * - Besides the value itself, the forms a program commonly prints are masked: JSON-escaped,
 *   URL-encoded, and base64 (standard and URL-safe, with or without padding).
 * - A line cut short (`truncated`) also loses a value's beginning at its end.
 */
const MIN_MASKED_LENGTH = 4;
const MASK = '***';

/** What a record keeps at most (characters of values): the deployment record stays far below 400 KB. */
const MAX_SEALED_CHARS = 192 * 1024;

const maskContext = (deploymentId: string) => ({ purpose: 'log-mask', deploymentId });

/** The values to mask: each line of each value, long enough, without repeats, longest first. */
function maskedValues(values: readonly string[]): string[] {
  const found = new Set<string>();
  for (const value of values) {
    for (const line of value.split(/\r?\n/)) if (line.length >= MIN_MASKED_LENGTH) found.add(line);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * The deployment's `logMask`: its sensitive values sealed for this deployment only. Values beyond
 * MAX_SEALED_CHARS in all are left out (the shortest are kept: they are the likeliest to be
 * printed whole), and that is logged, without the values.
 */
export async function sealLogMask(deploymentId: string, sensitive: readonly string[]): Promise<string> {
  const kept: string[] = [];
  let size = 0;
  const all = maskedValues(sensitive).reverse();
  for (const value of all) {
    if (size + value.length > MAX_SEALED_CHARS) break;
    kept.push(value);
    size += value.length;
  }
  if (kept.length < all.length) {
    log.warn('sensitive values too large to mask in full', { deploymentId, masked: kept.length, of: all.length });
  }
  const [sealed] = await secrets().encrypt(maskContext(deploymentId), [JSON.stringify(kept)]);
  return sealed as string;
}

/** A function that masks a log text, and whether a text changes under it. */
export interface Masker {
  (text: string, truncated?: boolean): string;
  readonly active: boolean;
}

/** The forms of a value a log may show it in (see the module's comment). */
function formsOf(value: string): string[] {
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ];
  return forms.filter((f) => f.length >= MIN_MASKED_LENGTH);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The masker of a list of values (no values: the identity). */
function maskerOf(values: readonly string[]): Masker {
  const lines = maskedValues(values);
  const forms = [...new Set(lines.flatMap(formsOf))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return Object.assign((text: string) => text, { active: false });
  // One pass, longest form first at each position (alternatives are tried in order).
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  const mask = (text: string, truncated = false) => {
    const masked = text.replace(pattern, MASK);
    return truncated ? maskCutTail(masked, lines) : masked;
  };
  return Object.assign(mask, { active: true });
}

/** A line cut short may end in the beginning of a value: that beginning goes too. */
function maskCutTail(text: string, values: readonly string[]): string {
  let cut = text.length;
  for (const value of values) {
    // Only a tail shorter than the value can be its beginning; the earliest start is the longest.
    const first = value[0] as string;
    for (
      let i = text.indexOf(first, Math.max(0, text.length - value.length + 1));
      i !== -1 && i <= text.length - MIN_MASKED_LENGTH;
      i = text.indexOf(first, i + 1)
    ) {
      if (value.startsWith(text.slice(i))) {
        cut = Math.min(cut, i);
        break;
      }
    }
  }
  return cut < text.length ? text.slice(0, cut) + MASK : text;
}

/** Opened masks by deployment, so a log followed page by page is not decrypted on every page. */
const opened = new Map<string, { sealed: string; masker: Masker }>();
const MAX_OPENED = 64;

/** The masker of a deployment's sealed `logMask`. */
async function openLogMask(deploymentId: string, sealed: string): Promise<Masker> {
  const hit = opened.get(deploymentId);
  if (hit?.sealed === sealed) return hit.masker;
  const [json] = await secrets().decrypt(maskContext(deploymentId), [sealed]);
  const masker = maskerOf(JSON.parse(json as string) as string[]);
  opened.delete(deploymentId);
  opened.set(deploymentId, { sealed, masker });
  if (opened.size > MAX_OPENED) opened.delete(opened.keys().next().value as string);
  return masker;
}

/**
 * The masker of a deployment's logs: its sealed values; for a deployment launched before logs
 * were masked (no `logMask`), the target's sensitive values as they are now.
 */
export async function deploymentMasker(
  d: Pick<DeploymentRecord, 'deploymentId' | 'orgId' | 'projectId' | 'target' | 'status' | 'logMask'>,
): Promise<Masker> {
  if (d.logMask !== undefined) return openLogMask(d.deploymentId, d.logMask);
  if (d.status === 'skipped') return maskerOf([]);
  const vars = await resolveVars(d.orgId, d.projectId, d.target);
  return maskerOf(vars.filter((v) => v.sensitive).map((v) => v.value));
}
