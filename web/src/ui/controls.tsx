import { type ReactNode, useEffect, useId, useRef } from 'react';
import {
  Button as AriaButton,
  Checkbox as AriaCheckbox,
  TextArea as AriaTextArea,
  type ButtonProps,
  Input,
  Label,
  TextField,
} from 'react-aria-components';
import { messageOf } from '../lib/api';

const tones = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 data-[pressed]:bg-blue-900',
  secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 data-[pressed]:bg-slate-100',
  danger: 'border border-red-700 bg-white text-red-800 hover:bg-red-50 data-[pressed]:bg-red-100',
};

/** A button (React Aria: press, keyboard and focus ring alike). */
export function Button({ tone = 'secondary', className, ...props }: ButtonProps & { tone?: keyof typeof tones }) {
  return (
    <AriaButton
      {...props}
      className={`inline-flex min-h-10 items-center justify-center gap-1 rounded-md px-3 py-1.5 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-50 ${tones[tone]} ${className ?? ''}`}
    />
  );
}

const fieldBox =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-2.5 py-1.5 text-sm outline-none focus:border-blue-700 focus:ring-2 focus:ring-blue-600';

export function TextInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'url' | 'password' | 'number';
  description?: string;
  isRequired?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
  className?: string;
  mono?: boolean;
}) {
  return (
    <TextField
      value={props.value}
      onChange={props.onChange}
      type={props.type ?? 'text'}
      isRequired={props.isRequired}
      autoFocus={props.autoFocus}
      className={`block text-sm ${props.className ?? ''}`}
    >
      <Label className="font-medium">{props.label}</Label>
      <Input placeholder={props.placeholder} className={`${fieldBox} ${props.mono ? 'font-mono' : ''}`} />
      {props.description && <span className="mt-1 block text-xs text-slate-600">{props.description}</span>}
    </TextField>
  );
}

export function TextArea(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  isRequired?: boolean;
  mono?: boolean;
  className?: string;
}) {
  return (
    <TextField
      value={props.value}
      onChange={props.onChange}
      isRequired={props.isRequired}
      className={`block text-sm ${props.className ?? ''}`}
    >
      <Label className="font-medium">{props.label}</Label>
      <AriaTextArea rows={props.rows ?? 4} className={`${fieldBox} ${props.mono ? 'font-mono text-xs' : ''}`} />
    </TextField>
  );
}

/**
 * A choice among a few options: the browser's own select (keyboard, screen readers and phones
 * handle it natively, and it costs no JavaScript), labelled and styled like the other fields.
 */
export function SelectField<K extends string>(props: {
  label: string;
  value: K;
  onChange: (value: K) => void;
  options: { id: K; label: string }[];
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`block text-sm ${props.className ?? ''}`}>
      <label htmlFor={id} className="font-medium">
        {props.label}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as K)}
        className={`${fieldBox} min-h-10`}
      >
        {props.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Checkbox(props: { children: ReactNode; isSelected: boolean; onChange: (v: boolean) => void }) {
  return (
    <AriaCheckbox
      isSelected={props.isSelected}
      onChange={props.onChange}
      className="group flex min-h-8 items-center gap-2 text-sm outline-none"
    >
      <span
        aria-hidden="true"
        className="flex size-5 items-center justify-center rounded border border-slate-500 group-data-[focus-visible]:ring-2 group-data-[focus-visible]:ring-blue-600 group-data-[selected]:bg-blue-700 group-data-[selected]:text-white"
      >
        {props.isSelected ? '✓' : ''}
      </span>
      {props.children}
    </AriaCheckbox>
  );
}

/** The API's message where the person acted (announced by screen readers). */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      {messageOf(error)}
    </p>
  );
}

export function Done({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-2 text-sm text-green-800">
      {children}
    </p>
  );
}

const statusTones: Record<string, string> = {
  ready: 'bg-green-100 text-green-900',
  success: 'bg-green-100 text-green-900',
  active: 'bg-green-100 text-green-900',
  merged: 'bg-purple-100 text-purple-900',
  open: 'bg-green-100 text-green-900',
  error: 'bg-red-100 text-red-900',
  failure: 'bg-red-100 text-red-900',
  building: 'bg-amber-100 text-amber-900',
  deploying: 'bg-amber-100 text-amber-900',
  in_progress: 'bg-amber-100 text-amber-900',
  queued: 'bg-slate-100 text-slate-800',
  pending: 'bg-amber-100 text-amber-900',
};

export function Status({ value }: { value: string | undefined | null }) {
  const v = value ?? 'unknown';
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${statusTones[v] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {v.replace('_', ' ')}
    </span>
  );
}

/** The page's heading: focused when the page opens (a route change), and the document's title. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Platform`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1} className="text-2xl font-semibold outline-none">
      {children}
    </h1>
  );
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Cursor paging: the API's `cursor` for the next page, asked for when the person wants more. */
export function MoreButton(props: { hasMore: boolean; loading: boolean; onMore: () => void; what: string }) {
  if (!props.hasMore) return null;
  return (
    <div className="mt-3">
      <Button onPress={props.onMore} isDisabled={props.loading}>
        {props.loading ? 'Loading…' : `Show more ${props.what}`}
      </Button>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="text-sm text-slate-600">
      Loading {what}…
    </p>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const when = (t: number | string | null | undefined) => (t ? dateTime.format(new Date(t)) : '');
