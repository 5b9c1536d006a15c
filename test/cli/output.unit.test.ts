import { paintStatus, table } from '../../cli/output';

/** Tables for people (a terminal: fitted, coloured statuses) and for scripts (a pipe: whole cells). */
const rows = [
  ['ID', 'STATUS', 'TITLE', 'URL'],
  ['dpl_01m8bhk6hy7q', 'ready', 'A rather long title that will not fit at all', 'https://web-01m8bhk6.example.com'],
  ['dpl_01m8bhk6hy7r', 'error', 'Short', 'https://web-01m8bhk7.example.com'],
];

describe('tables', () => {
  it('not a terminal: every cell whole, tab-separated, no header, no colour', () => {
    expect(table(rows, undefined, [0, 3], 1)).toBe(
      'dpl_01m8bhk6hy7q\tready\tA rather long title that will not fit at all\thttps://web-01m8bhk6.example.com\n' +
        'dpl_01m8bhk6hy7r\terror\tShort\thttps://web-01m8bhk7.example.com',
    );
    expect(table([['A'], ['tab\there\nnewline']], { color: true }, [])).toBe('tab here newline');
  });

  it('a terminal: free text is cut first, ids and URLs stay whole', () => {
    const out = table(rows, { columns: 80 }, [0, 3], 1);
    const lines = out.split('\n');
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    expect(out).toContain('dpl_01m8bhk6hy7q');
    expect(out).toContain('https://web-01m8bhk6.example.com');
    expect(lines[1]).toMatch(/ A rather long title… /);
    // Too narrow for the kept columns: they stay whole and the row runs over.
    const narrow = table(rows, { columns: 40 }, [0, 3], 1).split('\n');
    expect(narrow[1]).toMatch(/^dpl_01m8bhk6hy7q {2}ready {3}A ra… {2}https:\/\/web-01m8bhk6\.example\.com$/);
  });

  it('colour on the status column only when asked, never in the header', () => {
    const plain = table(rows, { columns: 200 }, [], 1);
    expect(plain).not.toContain('\x1b[');
    const coloured = table(rows, { columns: 200, color: true }, [], 1).split('\n');
    expect(coloured[0]).not.toContain('\x1b[');
    expect(coloured[1]).toContain('\x1b[32mready ');
    expect(coloured[2]).toContain('\x1b[31merror ');
    expect(paintStatus('queued', true)).toBe('\x1b[33mqueued\x1b[0m');
    expect(paintStatus('queued', false)).toBe('queued');
    expect(paintStatus('whatever', true)).toBe('whatever');
  });
});
