import { config } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';
import { lazyPort } from '../../kernel/ground/lazy';
import type { MailPort } from './port';

export type { MailMessage, MailPort, MailQuota, RawMail } from './port';

let adapter: MailPort | undefined;

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** SES (v2 SendEmail) on AWS; on one machine each message is an `.eml` file in `OUTBOX_DIR`. */
export function mail(): MailPort {
  adapter ??= lazyPort<MailPort>(() =>
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localMail: MailPort }>).then((m) => m.localMail)
      : import('./aws').then((m) => m.sesMail),
  );
  return adapter;
}

/** Where a domain's inbound mail goes (its MX): SES's receiving endpoint of the region; locally this machine. */
export const inboundMxHost = () =>
  config.target === 'local' ? 'localhost' : `inbound-smtp.${readEnv('AWS_REGION')}.amazonaws.com`;
