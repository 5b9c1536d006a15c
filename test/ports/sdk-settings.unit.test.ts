import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { SDK_SETTINGS, type SdkClientName, sdkSettings, worstCaseMs } from '../../shared/kernel/ground/sdk-settings';

/** Issue "under faults": the SDK's retries and timeouts are set once, and every client takes them. */
const root = resolve(__dirname, '../..');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });

/** Clients that do not take the table, each with its reason. */
const OWN_SETTINGS: Record<string, string> = {
  LambdaClient: "a customer function's invocation lasts as long as the function's own timeout",
  Client: 'the MCP client of connectors (not an AWS SDK client)',
};

/** Each `new …Client(` in shared/ with the text of its arguments (to the first closing parenthesis at depth 0). */
function clientConstructions(): { file: string; client: string; args: string }[] {
  return files(join(root, 'shared')).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/new (\w*Client)\(/g)].map((m) => {
      let depth = 1;
      let i = (m.index ?? 0) + m[0].length;
      const start = i;
      while (depth > 0 && i < text.length) {
        if (text[i] === '(') depth++;
        if (text[i] === ')') depth--;
        i++;
      }
      return { file: relative(root, file), client: m[1] as string, args: text.slice(start, i - 1) };
    });
  });
}

it('every AWS SDK client of shared/ is made with the settings of the one table', () => {
  const found = clientConstructions();
  expect(found.length).toBeGreaterThan(15);
  const without = found.filter((c) => !OWN_SETTINGS[c.client] && !/sdkSettings\('\w+'\)/.test(c.args));
  expect(without).toEqual([]);
});

it("a call's worst case fits well inside a route function's 30 s", () => {
  for (const name of Object.keys(SDK_SETTINGS) as SdkClientName[]) {
    expect([name, worstCaseMs(name) <= 25_000]).toEqual([name, true]);
  }
});

it('the settings are the standard retry mode with timeouts on the request handler', () => {
  expect(sdkSettings('table')).toEqual({
    maxAttempts: 3,
    retryMode: 'standard',
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 6_000, throwOnRequestTimeout: true },
  });
});
