import { COMMAND_TABLE } from '../../cli/commands';
import { findCommand } from '../../cli/help';
import { parse } from '../../cli/run';

/**
 * The command table itself: every command a person can see has a summary and at least one
 * example, and each example is a command line the program accepts as that command (its words,
 * known options, the required options and arguments), checked by the dispatcher's own parser.
 */

const visible = COMMAND_TABLE.filter((c) => !c.hidden);

/** A shell line as commands, each its words (quotes taken off), cut at pipes, redirections, `&&`, `;`, `$(…)`. */
function commandsOf(line: string): string[][] {
  const commands: string[][] = [[]];
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\|\||&&|[|;<>()$])|([^\s'"|;<>()$]+)/g)) {
    if (m[3]) commands.push([]);
    else (commands.at(-1) as string[]).push(m[1] ?? m[2] ?? m[4] ?? '');
  }
  return commands.filter((c) => c.length > 0);
}

/** The `platform …` command lines of an example, without the program's name. */
const platformLines = (example: string) =>
  commandsOf(example)
    .filter((c) => c[0] === 'platform')
    .map((c) => c.slice(1));

describe('the command table', () => {
  it('has commands, each named once', () => {
    expect(visible.length).toBeGreaterThan(100);
    const names = visible.map((c) => c.path.join(' '));
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(visible.map((c) => [c.path.join(' '), c]))('%s has a summary and examples', (_name, command) => {
    expect(command.summary).toMatch(/\w{2}/);
    expect(command.examples?.length ?? 0).toBeGreaterThan(0);
  });

  it.each(visible.map((c) => [c.path.join(' '), c]))(
    'the examples of %s are accepted command lines',
    (_name, command) => {
      const lines = (command.examples ?? []).flatMap((example) =>
        platformLines(example).map((argv) => ({ example, argv })),
      );
      // At least one runs the command itself; every platform command line in them is one the program takes.
      expect(lines.map(({ argv }) => findCommand(argv)?.command)).toContain(command);
      for (const { example, argv } of lines) {
        const found = findCommand(argv);
        expect({ example, known: found !== undefined }).toEqual({ example, known: true });
        const { command: named, words } = found as NonNullable<typeof found>;
        let mistake: string | undefined;
        try {
          parse(named, argv.slice(words));
        } catch (err) {
          mistake = (err as Error).message;
        }
        expect({ example, mistake }).toEqual({ example, mistake: undefined });
      }
    },
  );

  it('a command line the parser refuses fails this check (an unknown option, a missing argument)', () => {
    const send = visible.find((c) => c.path.join(' ') === 'mail forward');
    expect(send).toBeDefined();
    expect(() => parse(send as never, ['msg_1', '--to', 'a@example.com', '--bogus'])).toThrow(/has no option --bogus/);
    expect(() => parse(send as never, ['--to', 'a@example.com'])).toThrow(/needs <messageId>/);
    expect(
      commandsOf(`echo "$T" | platform login --with-token > out 'a b'; source <(platform completion bash)`),
    ).toEqual([
      ['echo', '$T'],
      ['platform', 'login', '--with-token'],
      ['out', 'a b'],
      ['source'],
      ['platform', 'completion', 'bash'],
    ]);
  });
});
