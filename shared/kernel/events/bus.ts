/**
 * Platform events on one machine: what EventBridge carries on AWS. A local engine that stands in
 * for an AWS system (the local builder for CodeBuild) publishes the event that system would send,
 * in its shape, and the local worker runner (lib/local/workers.ts) delivers it to the workers whose
 * trigger matches (lib/workers.ts), as EventBridge rules do. The engine never moves a record itself.
 * Nothing listens in a Lambda function: there EventBridge delivers, and nothing publishes here.
 */
export interface PlatformEvent {
  /** EventBridge's id of the event; the local runner gives one to an event published without. */
  id?: string;
  source: string;
  'detail-type': string;
  detail: Record<string, unknown>;
}

type Listener = (event: PlatformEvent) => Promise<void>;

let listener: Listener | undefined;

/**
 * Hands `event` to the runner and resolves once the matching workers have handled it (or failed
 * past their retries: then it rejects). Without a runner (a test without one), it is dropped.
 */
export function publishEvent(event: PlatformEvent): Promise<void> {
  return listener ? listener(event) : Promise.resolve();
}

/** The runner's side: one listener at a time. Returns the unsubscribe. */
export function onPlatformEvents(next: Listener): () => void {
  listener = next;
  return () => {
    if (listener === next) listener = undefined;
  };
}
