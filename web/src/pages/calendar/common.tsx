import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Calendar } from '../../../../client';
import { api } from '../../lib/api';
import { SelectField } from '../../ui/controls';

/** The viewer's mailboxes (calendars and address books belong to one). */
export function useMailboxes(orgId: string) {
  return useQuery({ queryKey: ['mailboxes', orgId], queryFn: () => api().getMailMailboxes({ orgId }) });
}

/**
 * The mailbox the page works in: `?mailbox=` when it names one of the viewer's, else their
 * personal one, else the first.
 */
export function useMailbox(orgId: string) {
  const boxes = useMailboxes(orgId);
  const [params, setParams] = useSearchParams();
  const list = boxes.data?.mailboxes ?? [];
  const asked = params.get('mailbox');
  const box = list.find((m) => m.mailboxId === asked) ?? list.find((m) => m.kind === 'personal') ?? list[0];
  const choose = (mailboxId: string) => {
    const next = new URLSearchParams(params);
    next.set('mailbox', mailboxId);
    setParams(next);
  };
  return { boxes, list, box, choose };
}

export function MailboxPicker(props: {
  list: { mailboxId: string; address: string; name: string }[];
  value: string;
  onChange: (id: string) => void;
}) {
  if (props.list.length < 2) return null;
  return (
    <SelectField
      label="Mailbox"
      className="w-full sm:w-72"
      value={props.value}
      onChange={props.onChange}
      options={props.list.map((m) => ({ id: m.mailboxId, label: `${m.name} <${m.address}>` }))}
    />
  );
}

export const NO_MAILBOX =
  'You have no mailbox in this organization yet: calendars and contacts belong to a mailbox. An administrator can give you one under Mail.';

/** Calendar colors (the API's names) as swatch classes with enough contrast for white text. */
export const COLORS: Record<Calendar['color'], { bg: string; border: string; label: string }> = {
  blue: { bg: 'bg-blue-700', border: 'border-blue-700', label: 'Blue' },
  orange: { bg: 'bg-orange-700', border: 'border-orange-700', label: 'Orange' },
  teal: { bg: 'bg-teal-700', border: 'border-teal-700', label: 'Teal' },
  amber: { bg: 'bg-amber-800', border: 'border-amber-800', label: 'Amber' },
  pink: { bg: 'bg-pink-700', border: 'border-pink-700', label: 'Pink' },
  green: { bg: 'bg-green-700', border: 'border-green-700', label: 'Green' },
  red: { bg: 'bg-red-700', border: 'border-red-700', label: 'Red' },
  gray: { bg: 'bg-slate-600', border: 'border-slate-600', label: 'Gray' },
};
export const COLOR_IDS = Object.keys(COLORS) as Calendar['color'][];

/** Hands the browser a file to save (an export). */
export function saveFile(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name of a calendar's or an address book's name. */
export const fileName = (name: string, ext: string) =>
  `${name.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'export'}.${ext}`;

/** A native file picker, labelled like the other fields. */
export function FilePicker(props: { label: string; accept: string; onFile: (file: File | null) => void; id: string }) {
  return (
    <div className="block text-sm">
      <label htmlFor={props.id} className="font-medium">
        {props.label}
      </label>
      <input
        id={props.id}
        type="file"
        accept={props.accept}
        onChange={(e) => props.onFile(e.target.files?.[0] ?? null)}
        className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5"
      />
    </div>
  );
}
