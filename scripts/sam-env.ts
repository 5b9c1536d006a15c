import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LambdaClient, ListFunctionsCommand, ListTagsCommand } from '@aws-sdk/client-lambda';

/**
 * `npx tsx scripts/sam-env.ts [--stage <stage>] [--out <file>]`: writes the `--env-vars` file of
 * `sam local invoke` (`{ "<logical id>": { "VAR": "value" } }`) with the environment the deployed
 * stack's functions really have: the table, the cursor secret, the identity provider and its
 * audience, the queue. The synthesized template holds references (`{"Ref": "Table…"}`) that SAM
 * can't resolve, so without this file a function on `sam local` reads no table.
 *
 * The values come from the deployed functions themselves (Lambda's ListFunctions), matched to the
 * template's logical ids by the `aws:cloudformation:*` tags CloudFormation puts on every function:
 * no CloudFormation client, and exactly what each function runs with. The file holds a secret, so
 * it is written for its owner only, under cdk.out/ (ignored by git).
 */

const ROOT = resolve(__dirname, '..');
const STACK_TAG = 'aws:cloudformation:stack-name';
const LOGICAL_ID_TAG = 'aws:cloudformation:logical-id';

export type SamEnv = Record<string, Record<string, string>>;

/** The logical ids of the template's Lambda functions: what `sam local invoke` names them by. */
export function templateFunctions(template: { Resources?: Record<string, { Type?: string }> }): string[] {
  return Object.entries(template.Resources ?? {})
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([id]) => id)
    .sort();
}

/**
 * The environment of each deployed function of `stackName`, keyed by logical id; every function
 * of the template must be deployed (else the stack is not the one synthesized: deploy it first).
 */
export async function samEnv(lambda: LambdaClient, stackName: string, logicalIds: string[]): Promise<SamEnv> {
  const wanted = new Set(logicalIds);
  const env: SamEnv = {};
  let marker: string | undefined;
  do {
    const page = await lambda.send(new ListFunctionsCommand({ Marker: marker }));
    for (const fn of page.Functions ?? []) {
      if (!fn.FunctionArn) continue;
      const { Tags: tags = {} } = await lambda.send(new ListTagsCommand({ Resource: fn.FunctionArn }));
      const id = tags[LOGICAL_ID_TAG];
      if (tags[STACK_TAG] !== stackName || !id || !wanted.has(id)) continue;
      env[id] = { ...(fn.Environment?.Variables ?? {}) };
    }
    marker = page.NextMarker;
  } while (marker);
  const missing = logicalIds.filter((id) => !env[id]);
  if (missing.length) {
    throw new Error(
      `The stack ${stackName} has no deployed function ${missing.join(', ')}: deploy it first (npm run deploy), ` +
        'with the same settings as the synthesized template.',
    );
  }
  return env;
}

/** Writes `env` for its owner only: it holds the cursor secret. */
export function writeSamEnv(file: string, env: SamEnv): void {
  writeFileSync(file, `${JSON.stringify(env, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: string[]): Promise<void> {
  const stage = option(args, 'stage');
  const stackName = stage ? `PlatformStack-${stage}` : 'PlatformStack';
  const templateFile = join(ROOT, 'cdk.out', `${stackName}.template.json`);
  const out = resolve(option(args, 'out') ?? join(ROOT, 'cdk.out', 'sam-env.json'));
  let template: { Resources?: Record<string, { Type?: string }> };
  try {
    template = JSON.parse(readFileSync(templateFile, 'utf8'));
  } catch {
    throw new Error(`No template at ${templateFile}: run npm run synth first.`);
  }
  const env = await samEnv(new LambdaClient({}), stackName, templateFunctions(template));
  writeSamEnv(out, env);
  process.stdout.write(`Wrote ${out} (${Object.keys(env).length} functions of ${stackName}).\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
