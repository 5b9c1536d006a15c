import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { apply, type Completion, complete, type Suggestion, type ValueSource } from './jql';

/** Where the API said a query is wrong: its message, and the line and column it names. */
export interface JqlProblem {
  message: string;
  line?: number;
  column?: number;
}

/**
 * The JQL field: a combobox (ARIA 1.2) that offers, where the caret is, a field, an operator the
 * field takes, or one of its values; ↓/↑ move through them, Enter or Tab takes one, Escape closes
 * the list, Enter with nothing chosen runs the query. The API's parse error shows under it, the
 * place it names marked in the query.
 */
export function JqlInput(props: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  source: ValueSource;
  problem?: JqlProblem;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState(props.value.length);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const completion: Completion = useMemo(
    () => complete(props.value, caret, props.source),
    [props.value, caret, props.source],
  );
  const items = open ? completion.items : [];
  const expanded = items.length > 0;
  const pendingCaret = useRef<number | null>(null);

  useEffect(() => {
    if (pendingCaret.current !== null && input.current) {
      input.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  });
  useEffect(() => {
    document.getElementById(`${id}-opt-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, id]);

  const take = (s: Suggestion) => {
    const next = apply(props.value, completion, s);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    props.onChange(next.text);
    setActive(-1);
    setOpen(true);
  };
  const syncCaret = () => setCaret(input.current?.selectionStart ?? props.value.length);

  const problem = props.problem;
  const at = problem?.column !== undefined ? offsetOf(props.value, problem.line ?? 1, problem.column) : undefined;

  return (
    <div className="relative">
      <label htmlFor={id} className="text-sm font-medium">
        Query (JQL)
      </label>
      <input
        ref={input}
        id={id}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        className={`mt-1 block w-full rounded-md border bg-white px-2.5 py-2 font-mono text-sm outline-none focus:ring-2 focus:ring-blue-600 ${problem ? 'border-red-700' : 'border-slate-400'}`}
        onChange={(e) => {
          props.onChange(e.target.value);
          setCaret(e.target.selectionStart ?? e.target.value.length);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => {
          syncCaret();
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onClick={() => {
          syncCaret();
          setOpen(true);
        }}
        onKeyUp={(e) => {
          if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') syncCaret();
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            if (!open) setOpen(true);
            else if (items.length) setActive((a) => (a + 1) % items.length);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            if (items.length) setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
          } else if (e.key === 'Escape') {
            if (expanded) {
              e.preventDefault();
              setOpen(false);
              setActive(-1);
            }
          } else if ((e.key === 'Enter' || e.key === 'Tab') && expanded && active >= 0) {
            e.preventDefault();
            take(items[active] as Suggestion);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            setOpen(false);
            props.onSubmit();
          }
        }}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-700">
        Fields, operators and values are offered as you type: ↓ and ↑ choose, Enter or Tab takes one, Enter runs the
        query.
      </p>
      <div
        id={`${id}-list`}
        role="listbox"
        aria-label="Suggestions"
        hidden={!expanded}
        className="absolute z-10 mt-1 max-h-72 w-full max-w-md overflow-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg"
      >
        {items.map((s, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses through the combobox (aria-activedescendant)
          <div
            key={`${s.kind}:${s.label}`}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            tabIndex={-1}
            className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-1.5 text-sm ${i === active ? 'bg-blue-700 text-white' : 'text-slate-900'}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => take(s)}
          >
            <span className="font-mono">{s.label}</span>{' '}
            <span className={`text-xs ${i === active ? 'text-white' : 'text-slate-700'}`}>{s.kind}</span>
          </div>
        ))}
      </div>
      {problem && (
        <div
          id={`${id}-problem`}
          role="alert"
          className="mt-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900"
        >
          <p>{problem.message}</p>
          {at !== undefined && (
            <p className="mt-1 overflow-x-auto whitespace-pre font-mono text-xs" aria-hidden="true">
              {props.value.slice(0, at)}
              <mark className="bg-red-200 text-red-950 underline decoration-wavy">
                {props.value.slice(at, at + 1) || ' '}
              </mark>
              {props.value.slice(at + 1)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** The offset in `text` of a 1-based line and column. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) break;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + column - 1);
}
