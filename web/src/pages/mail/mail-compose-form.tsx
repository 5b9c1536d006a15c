import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Message } from '../../../../client';
import { ApiError, api } from '../../lib/api';
import { Button, ErrorNote, SelectField, TextArea, TextInput } from '../../ui/controls';
import { bytes, mailKey } from './mail-shell';

type PartRef = { uploadId: string } | { messageId: string; index: number };

export interface Attachment {
  key: string;
  ref?: PartRef;
  filename: string;
  size: number;
  state: 'uploading' | 'ready' | 'failed';
  error?: string;
}

export interface ComposeInit {
  draftId?: string;
  version?: number;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  attachments: Attachment[];
  inReplyTo: string | null;
}

export const emptyCompose = (): ComposeInit => ({
  to: [],
  cc: [],
  bcc: [],
  subject: '',
  text: '',
  attachments: [],
  inReplyTo: null,
});

/** Names of attachments a draft names only by id (an upload, a forwarded part), kept in this browser. */
const NAMES = 'platform.mail.attachment-names';
const names = (): Record<string, { filename: string; size: number }> => {
  try {
    return JSON.parse(localStorage.getItem(NAMES) ?? '{}');
  } catch {
    return {};
  }
};
const refKey = (r: PartRef) => ('uploadId' in r ? r.uploadId : `${r.messageId}:${r.index}`);
export function rememberName(r: PartRef, filename: string, size: number) {
  const all = names();
  all[refKey(r)] = { filename, size };
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 200))) delete all[k];
  localStorage.setItem(NAMES, JSON.stringify(all));
}
export function attachmentOf(r: PartRef): Attachment {
  const known = names()[refKey(r)];
  return {
    key: refKey(r),
    ref: r,
    filename: known?.filename ?? ('uploadId' in r ? 'Attached file' : 'Forwarded attachment'),
    size: known?.size ?? 0,
    state: 'ready',
  };
}

/** Forwarded parts of a message, as send and drafts take them. */
export const forwardedParts = (m: Message): Attachment[] =>
  m.attachments.map((a) => {
    const ref = { messageId: m.messageId, index: a.index };
    rememberName(ref, a.filename, a.size);
    return { key: refKey(ref), ref, filename: a.filename, size: a.size, state: 'ready' };
  });

/** Addresses as typed: separated by commas, semicolons or spaces; `Name <a@b>` gives its address. */
export function addressesOf(value: string): string[] {
  return value
    .split(/[,;\n]+/)
    .flatMap((part) => {
      const angle = /<([^>]+)>/.exec(part);
      return angle ? [angle[1] as string] : part.split(/\s+/);
    })
    .map((a) => a.trim())
    .filter(Boolean);
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

type Sent = Awaited<ReturnType<ReturnType<typeof api>['postMailMailboxesSend']>>;

/**
 * Compose, reply, reply all and forward: recipients checked as they are typed, attachments uploaded
 * at once (`…/uploads`, then the presigned PUT), the draft saved as the person types (a second
 * after the last keystroke: `POST …/drafts`, then `PUT` with `ifVersion`), sent with its draft
 * (which the send deletes).
 */
export function ComposeForm(props: {
  orgId: string;
  mailboxId: string;
  fromAddresses: string[];
  init: ComposeInit;
  title: string;
  onSent: (sent: Sent) => void;
  onDiscarded: () => void;
}) {
  const { orgId, mailboxId } = props;
  const qc = useQueryClient();
  const formId = useId();
  const [to, setTo] = useState(props.init.to.join(', '));
  const [cc, setCc] = useState(props.init.cc.join(', '));
  const [bcc, setBcc] = useState(props.init.bcc.join(', '));
  const [showCc, setShowCc] = useState(props.init.cc.length + props.init.bcc.length > 0);
  const [subject, setSubject] = useState(props.init.subject);
  const [text, setText] = useState(props.init.text);
  const [from, setFrom] = useState(props.fromAddresses[0] ?? '');
  const [files, setFiles] = useState<Attachment[]>(props.init.attachments);
  const [dirty, setDirty] = useState(0);
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved'>(props.init.draftId ? 'saved' : 'idle');
  const [saveError, setSaveError] = useState<unknown>(null);
  const draft = useRef({ id: props.init.draftId, version: props.init.version });
  const chain = useRef<Promise<void>>(Promise.resolve());
  const savedAt = useRef(0);
  const closed = useRef(false);

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setDirty((n) => n + 1);
    };

  const fields = () => ({
    to: addressesOf(to),
    cc: addressesOf(cc),
    bcc: addressesOf(bcc),
    subject,
    text,
    html: null,
    attachments: files.filter((f) => f.state === 'ready' && f.ref).map((f) => f.ref as PartRef),
    inReplyTo: props.init.inReplyTo,
  });
  const latest = useRef(fields);
  latest.current = fields;

  /** Saves what is typed now, after any save under way (one at a time, in order). */
  const save = useCallback(() => {
    const upTo = dirty;
    chain.current = chain.current.then(async () => {
      if (closed.current || upTo <= savedAt.current) return;
      setSaveState('saving');
      try {
        const body = latest.current();
        const { draft: d } = draft.current.id
          ? await api().putMailMailboxesDraftsByDraftId({
              orgId,
              mailboxId,
              draftId: draft.current.id,
              body: { ...body, ifVersion: draft.current.version },
            })
          : await api().postMailMailboxesDrafts({ orgId, mailboxId, body });
        draft.current = { id: d.draftId, version: d.version };
        savedAt.current = upTo;
        setSaveError(null);
        setSaveState('saved');
        void qc.invalidateQueries({ queryKey: [...mailKey(orgId, mailboxId), 'drafts'] });
        void qc.invalidateQueries({ queryKey: [...mailKey(orgId, mailboxId), 'labels'] });
      } catch (err) {
        setSaveError(err);
        setSaveState('idle');
      }
    });
    return chain.current;
  }, [dirty, orgId, mailboxId, qc]);

  // A second after the last change, the draft is saved.
  useEffect(() => {
    if (dirty === 0 || files.some((f) => f.state === 'uploading')) return;
    const t = setTimeout(() => void save(), 1000);
    return () => clearTimeout(t);
  }, [dirty, files, save]);

  const upload = async (file: File) => {
    const key = `${file.name}:${file.size}:${crypto.randomUUID()}`;
    const item: Attachment = { key, filename: file.name, size: file.size, state: 'uploading' };
    setFiles((fs) => [...fs, item]);
    const update = (patch: Partial<Attachment>) =>
      setFiles((fs) => fs.map((f) => (f.key === key ? { ...f, ...patch } : f)));
    try {
      const { upload: u } = await api().postMailMailboxesUploads({
        orgId,
        mailboxId,
        body: { filename: file.name, contentType: file.type || 'application/octet-stream', size: file.size },
      });
      // The presigned link of the object store, not the API: its own PUT.
      const put = await fetch(u.url, { method: 'PUT', headers: u.headers, body: file });
      if (!put.ok) throw new Error(`The upload of ${file.name} failed (${put.status}).`);
      rememberName({ uploadId: u.uploadId }, file.name, file.size);
      update({ state: 'ready', ref: { uploadId: u.uploadId } });
      setDirty((n) => n + 1);
    } catch (err) {
      update({ state: 'failed', error: err instanceof ApiError || err instanceof Error ? err.message : String(err) });
    }
  };

  const send = useMutation({
    mutationFn: async () => {
      closed.current = true;
      await chain.current;
      const body = latest.current();
      const fromField = from && from !== props.fromAddresses[0] ? { from } : {};
      if (draft.current.id) {
        // The draft as typed now, then sent by its id: the send deletes it.
        const { draft: d } = await api().putMailMailboxesDraftsByDraftId({
          orgId,
          mailboxId,
          draftId: draft.current.id,
          body: { ...body, ifVersion: draft.current.version },
        });
        draft.current.version = d.version;
        return api().postMailMailboxesSend({ orgId, mailboxId, body: { draftId: d.draftId, ...fromField } });
      }
      return api().postMailMailboxesSend({ orgId, mailboxId, body: { ...body, ...fromField } });
    },
    onError: () => {
      closed.current = false;
    },
    onSuccess: (sent) => {
      void qc.invalidateQueries({ queryKey: mailKey(orgId, mailboxId) });
      props.onSent(sent);
    },
  });

  const discard = useMutation({
    mutationFn: async () => {
      closed.current = true;
      await chain.current;
      if (draft.current.id)
        await api().deleteMailMailboxesDraftsByDraftId({ orgId, mailboxId, draftId: draft.current.id });
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: mailKey(orgId, mailboxId) });
      props.onDiscarded();
    },
    onError: () => {
      closed.current = false;
    },
  });

  const all = [...addressesOf(to), ...addressesOf(cc), ...addressesOf(bcc)];
  const uploading = files.some((f) => f.state === 'uploading');
  return (
    <form
      aria-labelledby={`${formId}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
      className="rounded-lg border border-slate-300 bg-white p-3"
    >
      <h2 id={`${formId}-title`} className="text-lg font-semibold">
        {props.title}
      </h2>
      {props.fromAddresses.length > 1 && (
        <SelectField
          label="From"
          className="mt-2"
          value={from}
          onChange={setFrom}
          options={props.fromAddresses.map((a) => ({ id: a, label: a }))}
        />
      )}
      <div className="mt-2 flex items-end gap-2">
        <TextInput label="To" value={to} onChange={edit(setTo)} className="min-w-0 flex-1" autoFocus={!to} />
        {!showCc && <Button onPress={() => setShowCc(true)}>Cc/Bcc</Button>}
      </div>
      {showCc && (
        <>
          <TextInput label="Cc" value={cc} onChange={edit(setCc)} className="mt-2" />
          <TextInput label="Bcc" value={bcc} onChange={edit(setBcc)} className="mt-2" />
        </>
      )}
      <RecipientCheck orgId={orgId} mailboxId={mailboxId} addresses={all} />
      <TextInput label="Subject" value={subject} onChange={edit(setSubject)} className="mt-2" />
      <TextArea label="Message" value={text} onChange={edit(setText)} rows={10} className="mt-2" />
      <div className="mt-2">
        <label className="inline-flex min-h-10 cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium focus-within:ring-2 focus-within:ring-blue-600 hover:bg-slate-50">
          Attach files
          <input
            type="file"
            multiple
            className="sr-only"
            onChange={(e) => {
              for (const f of Array.from(e.target.files ?? [])) void upload(f);
              e.target.value = '';
            }}
          />
        </label>
        {files.length > 0 && (
          <ul aria-label="Attachments" className="mt-2 flex flex-wrap gap-2">
            {files.map((f) => (
              <li
                key={f.key}
                className="flex items-center gap-2 rounded-md border border-slate-300 bg-slate-50 px-2 py-1 text-sm"
              >
                <span>
                  {f.filename}
                  {f.size > 0 && <span className="text-slate-600"> ({bytes(f.size)})</span>}
                  {f.state === 'uploading' && <span className="text-slate-700"> uploading…</span>}
                  {f.state === 'failed' && <span className="text-red-800"> {f.error}</span>}
                </span>
                <Button
                  aria-label={`Remove ${f.filename}`}
                  className="min-h-8 px-2"
                  onPress={() => {
                    setFiles((fs) => fs.filter((x) => x.key !== f.key));
                    setDirty((n) => n + 1);
                  }}
                >
                  ✕
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button type="submit" tone="primary" isDisabled={send.isPending || uploading || all.length === 0}>
          {send.isPending ? 'Sending…' : 'Send'}
        </Button>
        <Button tone="danger" isDisabled={discard.isPending || send.isPending} onPress={() => discard.mutate()}>
          Discard draft
        </Button>
        <span role="status" className="text-sm text-slate-700">
          {saveState === 'saving' ? 'Saving…' : saveState === 'saved' ? 'Draft saved' : ''}
        </span>
      </div>
      <ErrorNote error={saveError} />
      <ErrorNote error={send.error} />
      <ErrorNote error={discard.error} />
    </form>
  );
}

/** What `recipients/check` says of each address typed, half a second after the typing stops. */
function RecipientCheck({ orgId, mailboxId, addresses }: { orgId: string; mailboxId: string; addresses: string[] }) {
  const list = useDebounced([...new Set(addresses.map((a) => a.toLowerCase()))].slice(0, 100), 500);
  const check = useQuery({
    queryKey: [...mailKey(orgId, mailboxId), 'recipients', list],
    queryFn: () => api().postMailMailboxesRecipientsCheck({ orgId, mailboxId, body: { addresses: list } }),
    enabled: list.length > 0,
    staleTime: 60_000,
  });
  if (list.length === 0 || !check.data) return <ErrorNote error={check.error} />;
  return (
    <ul aria-label="Recipient check" className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs">
      {check.data.recipients.map((r) => {
        const [tone, note] = !r.valid
          ? ['text-red-800', 'not a valid address']
          : r.suppressed
            ? ['text-red-800', 'bounced or complained before: mail to it is not delivered']
            : r.internal
              ? ['text-green-800', 'on this platform']
              : r.contact
                ? ['text-green-800', 'you have mailed before']
                : ['text-slate-700', 'new recipient'];
        return (
          <li key={r.address} className={tone}>
            {r.address}: {note}
          </li>
        );
      })}
    </ul>
  );
}
