import { THROTTLED_MESSAGE } from '../../kernel/ground/backend-errors';
import { DomainError } from '../../kernel/ground/errors';

/**
 * Work of one key (an organization's issue creates) within one function instance, one after the
 * other: each create takes the space's next number and the organization's last rank, so creates
 * run together would only make each other retry. Across instances the conditional transaction
 * decides, and the loser retries.
 *
 * A turn's length is learnt as turns end (a moving average). A caller whose wait would pass
 * `budgetMs` (the ones before it times that length) is answered 429 with Retry-After at once:
 * under load a turn takes hundreds of milliseconds, and a long line held creates for tens of
 * seconds, past clients' timeouts and API Gateway's, where a clear "try again" serves them better.
 * 50 creates at once on a quiet machine all go through (a turn is a few milliseconds there).
 */
/**
 * The longest a create waits for its turn: API Gateway answers 503 to a request its function has
 * not answered in 30 s, so a wait past 20 s would end in a worse answer than 429.
 */
export const TURN_BUDGET_MS = 20_000;

export class Turns {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly waiting = new Map<string, number>();
  /** The moving average of a turn's length, in ms (0 until a turn ended). */
  turnMs = 0;

  constructor(
    private readonly budgetMs = TURN_BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const queued = this.waiting.get(key) ?? 0;
    if (queued > 0 && queued * this.turnMs > this.budgetMs) {
      return Promise.reject(new DomainError('throttled', THROTTLED_MESSAGE));
    }
    this.waiting.set(key, queued + 1);
    const turn = async () => {
      const left = (this.waiting.get(key) ?? 1) - 1;
      if (left > 0) this.waiting.set(key, left);
      else this.waiting.delete(key);
      const started = this.now();
      try {
        return await work();
      } finally {
        const took = this.now() - started;
        this.turnMs = this.turnMs === 0 ? took : 0.8 * this.turnMs + 0.2 * took;
      }
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
