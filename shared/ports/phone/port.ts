/**
 * The phone port: texts and voice calls (AWS End User Messaging SMS and voice; locally files in
 * the outbox). Numbers are E.164 (`+4915112345678`).
 */
export interface PhonePort {
  text(to: string, body: string): Promise<void>;
  /** A call that reads `message` aloud. */
  call(to: string, message: string): Promise<void>;
}

/** E.164: `+`, then 8 to 15 digits, the first not 0. */
export const E164 = /^\+[1-9]\d{7,14}$/;
