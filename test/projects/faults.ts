import { db } from '../../shared/kernel/store/client';

/**
 * Makes the `nth` call of a DynamoDB command fail as the service does on an internal error, at
 * the AWS SDK's boundary (the handlers run in this process and share its client): our code runs
 * unchanged and meets a backend failure part-way through its work. Returns the undo.
 */
export function failNthCall(command: string, nth: number): () => void {
  let seen = 0;
  const name = `fault-${command}-${nth}-${Math.random()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === command && ++seen === nth) {
        throw Object.assign(new Error('We encountered an internal error. Please try again.'), {
          name: 'InternalServerError',
          $fault: 'server',
          $metadata: { httpStatusCode: 500 },
        });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => {
    db.middlewareStack.remove(name);
  };
}
