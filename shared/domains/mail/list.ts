import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { queryPages } from '../../kernel/store/ops';
import { type IndexItem, indexPrefix, mailPk, type Party, type ThreadSummary } from './threads';

/** A parsed search (Gmail's operators): each term must hold for the thread (any of its messages, as Gmail's). */
type Term = (t: IndexItem, labelNames: Map<string, string>) => boolean;

const partyText = (ps: Party[]) => ps.map((p) => `${p.name} ${p.address}`.toLowerCase()).join(' ');
/** Every subject of its messages (a thread filed before they were kept: its latest). */
const subjectText = (t: IndexItem) => [t.subject, ...(t.subjects ?? [])].join('\n').toLowerCase();
const day = (s: string) => {
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(s);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
};

/** Terms of `q`: `from:` `to:` `subject:` `label:` `is:unread|read|starred` `has:attachment` `before:` `after:` and words. */
export function parseQuery(q: string): Term[] {
  const tokens = q.match(/(\w+:)?("[^"]*"|\S+)/g) ?? [];
  return tokens.map((token): Term => {
    const m = /^(\w+):(.+)$/.exec(token);
    const [op, raw] = m ? [m[1]?.toLowerCase(), m[2] as string] : [undefined, token];
    const v = raw.replace(/^"|"$/g, '').toLowerCase();
    switch (op) {
      case 'from':
        return (t) => partyText(t.from).includes(v);
      case 'to':
        return (t) => partyText(t.to).includes(v);
      case 'subject':
        return (t) => subjectText(t).includes(v);
      case 'label':
        return (t, names) => t.labels.some((l) => l.toLowerCase() === v || names.get(l)?.toLowerCase() === v);
      case 'is':
        if (v === 'unread') return (t) => t.unread;
        if (v === 'read') return (t) => !t.unread;
        if (v === 'starred') return (t) => t.labels.includes('STARRED');
        return () => false;
      case 'has':
        return (t) => v === 'attachment' && t.hasAttachment;
      case 'before':
        return (t) => t.lastAt < day(v);
      case 'after':
        return (t) => t.lastAt >= day(v);
      default: {
        const word = token.replace(/^"|"$/g, '').toLowerCase();
        return (t) =>
          `${subjectText(t)} ${t.snippet} ${partyText(t.from)} ${partyText(t.to)}`.toLowerCase().includes(word);
      }
    }
  });
}

const READ_BUDGET = 1000;

/**
 * A page of a label's threads, newest first, from the label's index items: one Query for a page
 * without `q`, whatever the mailbox's size. With `q`, index pages are read and filtered until the
 * page is full or 1,000 items were read (the cursor then continues the search).
 */
export async function listThreads(
  mailboxId: string,
  input: { label: string; q?: string; cursor?: string; limit: number; labelNames: Map<string, string> },
): Promise<{ threads: ThreadSummary[]; cursor: string | null }> {
  const scope = `${mailboxId}:threads:${input.label}:${input.q ?? ''}`;
  const terms = input.q ? parseQuery(input.q) : [];
  const prefix = indexPrefix(input.label);
  const threads: ThreadSummary[] = [];
  let read = 0;
  const pages = queryPages<IndexItem & { pk: string; sk: string }>(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': mailPk(mailboxId), ':a': prefix, ':b': `${prefix}~` },
      ScanIndexForward: false,
      Limit: terms.length ? 100 : input.limit,
    },
    decodeCursor(scope, input.cursor),
  );
  for await (const { items, next } of pages) {
    for (const [i, item] of items.entries()) {
      read++;
      if (!terms.every((term) => term(item, input.labelNames))) continue;
      const { pk: _pk, sk: _sk, subjects: _subjects, ...summary } = item;
      threads.push(summary);
      if (threads.length === input.limit) {
        const more = i < items.length - 1 || !!next;
        return { threads, cursor: more ? encodeCursor(scope, { pk: item.pk, sk: item.sk }) : null };
      }
    }
    if (!next) return { threads, cursor: null };
    if (!terms.length || read >= READ_BUDGET) return { threads, cursor: encodeCursor(scope, next) };
  }
  return { threads, cursor: null };
}
