import { scheduler } from '../../ports/scheduler';
import { stepTimer } from './deliver';
import { ackNotice } from './notices';

/**
 * Acknowledges a person's notice: its later escalation steps are not sent. Their timers are
 * cancelled as a best effort (a timer that still runs finds the notice acknowledged and sends
 * nothing). `false` when it already was.
 */
export async function acknowledge(userId: string, noticeId: string): Promise<boolean> {
  const { acked, notice } = await ackNotice(userId, noticeId);
  if (acked) {
    const later = notice.steps.map((_, n) => n).filter((n) => n > notice.escalationStep);
    await Promise.allSettled(later.map((n) => scheduler().cancel(stepTimer(notice.noticeId, n))));
  }
  return acked;
}
