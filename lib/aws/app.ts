import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { platformSettings } from './context';
import { PlatformStack } from './platform-stack';

/**
 * The CDK app of bin/platform.ts, as a function so the tests synthesize exactly what `cdk synth`
 * does: the same settings, the same stack name, the same checks.
 */
export function platformApp(props?: AppProps): { app: App; stack: PlatformStack } {
  const app = new App(props);
  const settings = platformSettings(app.node);

  // No `env`: the stack is environment-agnostic, so synth makes no lookups and needs no credentials.
  const stack = new PlatformStack(app, settings.stage ? `PlatformStack-${settings.stage}` : 'PlatformStack', {
    description: `Developer platform API${settings.stage ? ` (${settings.stage})` : ''}`,
    ...settings,
    // Checked by the stack: no synth without it.
    authAudience: settings.authAudience ?? '',
  });

  // cdk-nag 3 is a policy-validation plugin: an unacknowledged finding fails the synth.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
