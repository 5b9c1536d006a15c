import { queryPrefix } from '../../kernel/store/ops';
import { getMany, keys } from '../../kernel/store/table';
import { mail } from '../../ports/mail-transport';
import { pageOrgs } from '../platform-admin/orgs';
import { MAIL_PREFIX } from './records';
import { usageKeys } from './usage';

interface MonthCounters {
  sent?: number;
  received?: number;
  bounces?: number;
  complaints?: number;
}

/**
 * Mail per organization for the operators: mailboxes; sent, received, bounces and complaints this
 * month, and sent today, summed over the mailboxes' own counters (shared/domains/mail/usage.ts, moved
 * by the sends, the deliveries and SES's feedback); and the account's sending quota through the
 * mail port (SES GetAccount; locally the local engine's figures). One Query per organization and
 * one BatchGet per 50 of its mailboxes. Mail's own figures, so it lives in mail (above the operators'
 * product, whose paging of the organizations it takes).
 */
export async function mailUsage(input: { q?: string; cursor?: string; limit: number }) {
  const now = Date.now();
  const [page, quota] = await Promise.all([pageOrgs('mail-usage', input), mail().quota()]);
  const organizations = await Promise.all(
    page.orgs.map(async (org) => {
      const ids = (await queryPrefix<{ mailboxId: string }>(keys.org(org.orgId).pk, MAIL_PREFIX.mailbox)).map(
        (m) => m.mailboxId,
      );
      const counters = await getMany<MonthCounters>(
        ids.flatMap((id) => [usageKeys.month(id, now), usageKeys.day(id, now)]),
      );
      const sum = (f: keyof MonthCounters, of: 0 | 1) =>
        counters.reduce((n, c, i) => n + (i % 2 === of ? Math.max(0, c?.[f] ?? 0) : 0), 0);
      return {
        orgId: org.orgId,
        slug: org.slug,
        name: org.name,
        mailboxes: ids.length,
        sent: sum('sent', 0),
        received: sum('received', 0),
        bounces: sum('bounces', 0),
        complaints: sum('complaints', 0),
        sentToday: sum('sent', 1),
      };
    }),
  );
  return { month: new Date(now).toISOString().slice(0, 7), quota, organizations, cursor: page.cursor };
}
