import { THROTTLED_MESSAGE } from '../../kernel/ground/backend-errors';
import { DomainError } from '../../kernel/ground/errors';

/**
 * Work of one key (an organization's issue creates) within one function instance, one after the
 * other: each create takes the space's next number and the organization's last rank, so creates
 * run together would only make each other retry. Across instances the conditional transaction
 * decides, and the loser retries.
 *
 * A caller that waited longer than `budgetMs` for its turn is answered 429 with Retry-After when
 * the turn comes, its work not done: under load a turn takes hundreds of milliseconds (seconds with
 * the SDK's retries), and a long line held creates for tens of seconds, past clients' timeouts and
 * API Gateway's, where a clear "try again" serves them better. 50 creates at once on a quiet machine
 * all go through (a turn is a few milliseconds there).
 */
export const TURN_BUDGET_MS = 15_000;

export class Turns {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly budgetMs = TURN_BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const queuedAt = this.now();
    const turn = async () => {
      if (this.now() - queuedAt > this.budgetMs) throw new DomainError('throttled', THROTTLED_MESSAGE);
      return work();
    };
    const mine = (this.tails.get(key) ?? Promise.resolve()).then(turn, turn);
    const tail = mine.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return mine;
  }
}
