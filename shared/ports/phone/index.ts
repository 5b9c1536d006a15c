import { definePort } from '../adapter';
import type { PhonePort } from './port';

export { E164, type PhonePort } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** AWS End User Messaging (SendTextMessage, SendVoiceMessage); on one machine, files in `OUTBOX_DIR`. */
export const phone = definePort<PhonePort>({
  aws: () => import('./aws').then((m) => m.awsPhone()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localPhone()),
});
