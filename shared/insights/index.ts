import { config } from '../config';
import type { AnalyticsSink } from './port';
import { awsSink } from './sink-aws';
import { localSink } from './sink-local';

export type { AnalyticsEvent, AnalyticsSink } from './port';

let sink: AnalyticsSink | undefined;

/** The analytics sink for PLATFORM_TARGET (both adapters are a few lines, with no client). */
export function analytics(): AnalyticsSink {
  sink ??= config.target === 'aws' ? awsSink() : localSink();
  return sink;
}
