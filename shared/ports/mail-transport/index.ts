import { config } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';
import { definePort } from '../adapter';
import type { MailPort } from './port';

export type { MailMessage, MailPort, MailQuota, RawMail } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** SES (v2 SendEmail) on AWS; on one machine each message is an `.eml` file in `OUTBOX_DIR`. */
export const mail = definePort<MailPort>({
  aws: () => import('./aws').then((m) => m.awsMail()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localMail()),
});

/** Where a domain's inbound mail goes (its MX): SES's receiving endpoint of the region; locally this machine. */
export const inboundMxHost = () =>
  config.target === 'local' ? 'localhost' : `inbound-smtp.${readEnv('AWS_REGION')}.amazonaws.com`;
