import { config } from '../../kernel/config';
import { lazyPort } from '../../kernel/ground/lazy';
import type { PhonePort } from './port';

export { E164, type PhonePort } from './port';

let adapter: PhonePort | undefined;

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** AWS End User Messaging (SendTextMessage, SendVoiceMessage); on one machine, files in `OUTBOX_DIR`. */
export function phone(): PhonePort {
  adapter ??= lazyPort<PhonePort>(() =>
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localPhone: PhonePort }>).then((m) => m.localPhone)
      : import('./aws').then((m) => m.awsPhone),
  );
  return adapter;
}
