import { DomainError } from '../../../kernel/ground/errors';

/**
 * A query that cannot be run: 400 with the position of the problem (1-based line and column) and,
 * for a syntax error, what was expected there. Thrown by parseJql and compileJql; the route lets it
 * through, so the answer is `{ error, line, column, expected? }`.
 */
export class JqlError extends DomainError {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    readonly expected?: string[],
    readonly field?: string,
  ) {
    super('invalid', message, {
      line,
      column,
      ...(expected ? { expected } : {}),
      ...(field !== undefined ? { field } : {}),
    });
    this.name = 'JqlError';
  }
}

/** `a`, `a or b`, `a, b or c`. */
export function oneOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
