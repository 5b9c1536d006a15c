import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button, ErrorNote } from '../../ui/controls';

/** The look of the app's fields (web/src/ui/controls.tsx), for the native controls of this area. */
export const box =
  'block w-full rounded-md border border-slate-400 bg-white px-2.5 py-1.5 text-sm outline-none focus:border-blue-700 focus:ring-2 focus:ring-blue-600';

/**
 * A field edited in place, as on a Jira issue: its value is a button ("Edit Priority: High");
 * pressed, the value's control opens with Save and Cancel (Escape cancels, focus comes back to
 * the value); the API's message shows under it when the save is refused.
 */
export function InlineField<T>(props: {
  label: string;
  shown: ReactNode;
  initial: T;
  canEdit: boolean;
  save: (value: T) => Promise<unknown>;
  editor: (value: T, set: (value: T) => void, id: string) => ReactNode;
  /** Wide fields (summary, description) take the whole row. */
  block?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<T>(props.initial);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const id = useId();
  useEffect(() => {
    if (wasEditing.current && !editing) button.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (!props.canEdit) return <div className="min-h-8 py-1 text-sm">{props.shown}</div>;
  if (!editing) {
    return (
      <button
        ref={button}
        type="button"
        onClick={() => {
          setValue(props.initial);
          setError(null);
          setEditing(true);
        }}
        className={`block min-h-8 w-full rounded px-1 py-1 text-left text-sm outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-blue-600 ${props.block ? '' : ''}`}
      >
        <span className="sr-only">Edit {props.label}: </span>
        {props.shown}
      </button>
    );
  }
  return (
    <form
      className="grid gap-2 py-1"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          setEditing(false);
        }
      }}
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        setError(null);
        try {
          await props.save(value);
          setEditing(false);
        } catch (err) {
          setError(err);
        } finally {
          setPending(false);
        }
      }}
    >
      <label htmlFor={id} className="sr-only">
        {props.label}
      </label>
      {props.editor(value, setValue, id)}
      <div className="flex gap-2">
        <Button type="submit" tone="primary" isDisabled={pending}>
          Save
        </Button>
        <Button onPress={() => setEditing(false)}>Cancel</Button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

export function NativeSelect(props: {
  id?: string;
  label?: string;
  value: string;
  onChange: (v: string) => void;
  options: { id: string; label: string }[];
  autoFocus?: boolean;
}) {
  return (
    <select
      id={props.id}
      aria-label={props.id ? undefined : props.label}
      // biome-ignore lint/a11y/noAutofocus: the control the person just opened
      autoFocus={props.autoFocus}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      className={`${box} min-h-10`}
    >
      {props.options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** Several choices among a few (components, versions): checkboxes in a group named by its legend. */
export function Checks(props: {
  legend: string;
  value: string[];
  onChange: (v: string[]) => void;
  options: { id: string; label: string }[];
}) {
  if (props.options.length === 0) return <p className="text-sm text-slate-700">None defined in this space.</p>;
  return (
    <fieldset>
      <legend className="sr-only">{props.legend}</legend>
      <div className="flex flex-col gap-1">
        {props.options.map((o) => (
          <label key={o.id} className="flex min-h-8 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={props.value.includes(o.id)}
              onChange={(e) =>
                props.onChange(e.target.checked ? [...props.value, o.id] : props.value.filter((x) => x !== o.id))
              }
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A pill (labels, components, versions). */
export function Pill({ children }: { children: ReactNode }) {
  return (
    <span className="mr-1 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-900">{children}</span>
  );
}

const categoryTones: Record<string, string> = {
  todo: 'bg-slate-200 text-slate-900',
  inprogress: 'bg-blue-100 text-blue-900',
  done: 'bg-green-100 text-green-900',
};

/** A status as Jira shows it: upper case, coloured by its category. */
export function StatusLozenge({ name, category }: { name: string; category: string }) {
  return (
    <span
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${categoryTones[category] ?? categoryTones.todo}`}
    >
      {name}
    </span>
  );
}
