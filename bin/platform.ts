#!/usr/bin/env node
import { platformApp } from '../lib/aws/app';

// Settings come from context (`cdk synth -c stage=prod`, cdk.json) or AUTH_URL; see lib/aws/context.ts.
// The CLI synthesizes the app when this process exits.
platformApp();
