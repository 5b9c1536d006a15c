import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AddressBook, Contact } from '../../../../client';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useOrgId } from '../../lib/hooks';
import { useCursorList } from '../../lib/query';
import { Button, Done, ErrorNote, Loading, MoreButton, PageTitle, SelectField, TextInput } from '../../ui/controls';
import { FilePicker, fileName, MailboxPicker, NO_MAILBOX, saveFile, useMailbox } from './common';
import { Avatar } from './photo';

export default function ContactsPage() {
  const orgId = useOrgId();
  const { boxes, list, box, choose } = useMailbox(orgId);
  if (boxes.isPending) return <Loading what="your mailboxes" />;
  if (boxes.error) return <ErrorNote error={boxes.error} />;
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle title="Contacts">Contacts</PageTitle>
        {box && <MailboxPicker list={list} value={box.mailboxId} onChange={choose} />}
      </div>
      {box ? (
        <Books key={box.mailboxId} orgId={orgId} mailboxId={box.mailboxId} />
      ) : (
        <p className="mt-4">{NO_MAILBOX}</p>
      )}
    </div>
  );
}

type Ctx = { orgId: string; mailboxId: string; books: AddressBook[] };

function Books({ orgId, mailboxId }: { orgId: string; mailboxId: string }) {
  const [params, setParams] = useSearchParams();
  const books = useQuery({
    queryKey: ['contacts', orgId, mailboxId, 'books'],
    queryFn: () => api().getMailMailboxesAddressBooks({ orgId, mailboxId }),
  });
  const book = params.get('book') ?? '';
  const q = params.get('q') ?? '';
  const [search, setSearch] = useState(q);
  const ctx: Ctx = { orgId, mailboxId, books: books.data?.addressBooks ?? [] };
  const set = (key: string, value: string) => {
    const p = new URLSearchParams(params);
    if (value) p.set(key, value);
    else p.delete(key);
    setParams(p);
  };
  const current = ctx.books.find((b) => b.addressBookId === book);
  return (
    <div className="mt-4 grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <div className="order-2 lg:order-1">
        {books.isPending && <Loading what="address books" />}
        <ErrorNote error={books.error} />
        {books.data && (
          <BookList
            ctx={ctx}
            current={book}
            link={(id) => {
              const p = new URLSearchParams(params);
              if (id) p.set('book', id);
              else p.delete('book');
              return `?${p}`;
            }}
          />
        )}
        {books.data && <ImportVcf ctx={ctx} initial={book} />}
      </div>
      <section aria-labelledby="list-heading" className="order-1 min-w-0 lg:order-2">
        <div className="flex flex-wrap items-end gap-3">
          <h2 id="list-heading" className="text-lg font-semibold">
            {current ? current.name : 'All contacts'}
          </h2>
          <Link
            to={`/orgs/${orgId}/contacts/new?mailbox=${mailboxId}${book ? `&book=${book}` : ''}`}
            className="ml-auto inline-flex min-h-10 items-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white no-underline hover:bg-blue-800"
          >
            New contact
          </Link>
        </div>
        <form
          aria-label="Search"
          className="mt-3 flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            set('q', search.trim());
          }}
        >
          <TextInput label="Search contacts" className="min-w-0 flex-1" value={search} onChange={setSearch} />
          <Button type="submit">Search</Button>
        </form>
        <List ctx={ctx} book={book} q={q} />
      </section>
    </div>
  );
}

function List({ ctx, book, q }: { ctx: Ctx; book: string; q: string }) {
  const { orgId, mailboxId } = ctx;
  const list = useCursorList(
    ['contacts', orgId, mailboxId, 'list', book, q],
    (cursor) =>
      api().getMailMailboxesContacts({
        orgId,
        mailboxId,
        ...(book ? { addressBookId: book } : {}),
        ...(q ? { q } : {}),
        ...(cursor ? { cursor } : {}),
      }),
    (p) => p.contacts,
  );
  if (list.isPending) return <Loading what="contacts" />;
  return (
    <div className="mt-3">
      <ErrorNote error={list.error} />
      {list.items.length === 0 ? (
        <p className="text-sm text-slate-700">{q ? `No contacts match “${q}”.` : 'No contacts yet.'}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.items.map((c) => (
            <Row key={c.contactId} ctx={ctx} c={c} />
          ))}
        </ul>
      )}
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="contacts" />
    </div>
  );
}

function Row({ ctx, c }: { ctx: Ctx; c: Contact }) {
  const email = c.emails[0]?.value;
  const phone = c.phones[0]?.value;
  return (
    <li className="flex min-w-0 items-center gap-3 p-3 text-sm">
      <Avatar name={c.displayName} />
      <div className="min-w-0 flex-1">
        <Link
          to={`/orgs/${ctx.orgId}/contacts/${c.addressBookId}/${c.contactId}?mailbox=${ctx.mailboxId}`}
          className="font-medium"
        >
          {c.displayName || '(No name)'}
        </Link>
        <p className="truncate text-slate-700">{[email, phone, c.organization].filter(Boolean).join(' · ')}</p>
      </div>
    </li>
  );
}

function BookList(props: { ctx: Ctx; current: string; link: (id: string) => string }) {
  const { orgId, mailboxId, books } = props.ctx;
  const client = useQueryClient();
  const [name, setName, clear] = useDraft('new-address-book', '');
  const create = useMutation({
    mutationFn: () => api().postMailMailboxesAddressBooks({ orgId, mailboxId, body: { name } }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['contacts', orgId, mailboxId] });
    },
  });
  return (
    <nav aria-labelledby="books-heading">
      <h2 id="books-heading" className="mb-2 text-base font-semibold">
        Address books
      </h2>
      <ul className="space-y-1 text-sm">
        <li>
          <Link
            to={props.link('')}
            aria-current={props.current === '' ? 'page' : undefined}
            className={`block rounded px-2 py-1.5 no-underline ${props.current === '' ? 'bg-blue-50 font-semibold text-slate-900' : 'text-slate-900'}`}
          >
            All contacts
          </Link>
        </li>
        {books.map((b) => (
          <BookRow key={b.addressBookId} ctx={props.ctx} b={b} current={props.current} link={props.link} />
        ))}
      </ul>
      <form
        aria-label="New address book"
        className="mt-3 grid gap-2 rounded-md border border-slate-200 p-2"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextInput label="New address book" isRequired value={name} onChange={setName} />
        <div>
          <Button type="submit" isDisabled={create.isPending}>
            Create address book
          </Button>
          <ErrorNote error={create.error} />
        </div>
      </form>
    </nav>
  );
}

function BookRow(props: { ctx: Ctx; b: AddressBook; current: string; link: (id: string) => string }) {
  const { orgId, mailboxId } = props.ctx;
  const { b } = props;
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [name, setName] = useState(b.name);
  const [version, setVersion] = useState<'3.0' | '4.0'>('3.0');
  const done = () => client.invalidateQueries({ queryKey: ['contacts', orgId, mailboxId] });
  const rename = useMutation({
    mutationFn: () =>
      api().patchMailMailboxesAddressBooksByAddressBookId({
        orgId,
        mailboxId,
        addressBookId: b.addressBookId,
        body: { name },
      }),
    onSuccess: async () => {
      setEditing(false);
      await done();
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      api().deleteMailMailboxesAddressBooksByAddressBookId({ orgId, mailboxId, addressBookId: b.addressBookId }),
    onSuccess: done,
  });
  const exp = useMutation({
    mutationFn: () =>
      api().getMailMailboxesAddressBooksExport({ orgId, mailboxId, addressBookId: b.addressBookId, version }),
    onSuccess: (text) => saveFile(fileName(b.name, 'vcf'), 'text/vcard', text),
  });
  const active = props.current === b.addressBookId;
  return (
    <li>
      <div className="flex items-center gap-1">
        <Link
          to={props.link(b.addressBookId)}
          aria-current={active ? 'page' : undefined}
          className={`block min-w-0 flex-1 truncate rounded px-2 py-1.5 no-underline ${active ? 'bg-blue-50 font-semibold text-slate-900' : 'text-slate-900'}`}
        >
          {b.name}
        </Link>
        <Button
          className="min-h-8 px-2 text-xs"
          aria-label={`Edit ${b.name}`}
          aria-expanded={editing}
          onPress={() => setEditing(!editing)}
        >
          Edit
        </Button>
      </div>
      {editing && (
        <div className="mt-1 grid gap-2 rounded-md border border-slate-200 p-2">
          <form
            className="grid gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate();
            }}
          >
            <TextInput label={`Name of ${b.name}`} isRequired value={name} onChange={setName} />
            <div>
              <Button type="submit" tone="primary" isDisabled={rename.isPending}>
                Rename
              </Button>
            </div>
            <ErrorNote error={rename.error} />
          </form>
          <div className="flex flex-wrap items-end gap-2">
            <SelectField
              label="vCard version"
              value={version}
              onChange={setVersion}
              options={[
                { id: '3.0', label: '3.0 (most apps)' },
                { id: '4.0', label: '4.0' },
              ]}
            />
            <Button onPress={() => exp.mutate()} isDisabled={exp.isPending} aria-label={`Export ${b.name} (.vcf)`}>
              Export .vcf
            </Button>
          </div>
          <ErrorNote error={exp.error} />
          {!b.isDefault &&
            (confirm ? (
              <div className="flex flex-wrap items-center gap-2">
                <span>Delete {b.name} and its contacts?</span>
                <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
                  Delete address book
                </Button>
                <Button onPress={() => setConfirm(false)}>Keep</Button>
              </div>
            ) : (
              <Button tone="danger" onPress={() => setConfirm(true)}>
                Delete…
              </Button>
            ))}
          <ErrorNote error={remove.error} />
        </div>
      )}
    </li>
  );
}

const MAX_INLINE = 4 * 1024 * 1024;

function ImportVcf({ ctx, initial }: { ctx: Ctx; initial: string }) {
  const { orgId, mailboxId, books } = ctx;
  const client = useQueryClient();
  const [book, setBook] = useState(initial || (books[0]?.addressBookId ?? ''));
  const [file, setFile] = useState<File | null>(null);
  const run = useMutation({
    mutationFn: async () => {
      if (!file) throw new Error('Choose a .vcf file first.');
      if (file.size > MAX_INLINE) throw new Error('Files over 4 MB can be imported with the API or the command line.');
      const ids = { orgId, mailboxId, addressBookId: book || (books[0]?.addressBookId ?? '') };
      let r = await api().postMailMailboxesAddressBooksImport({ ...ids, body: { content: await file.text() } });
      const total = { imported: r.imported, updated: r.updated, skipped: r.skipped, warnings: [...r.warnings] };
      while (!r.done && r.next) {
        r = await api().postMailMailboxesAddressBooksImport({ ...ids, body: { next: r.next } });
        total.imported += r.imported;
        total.updated += r.updated;
        total.skipped += r.skipped;
        total.warnings.push(...r.warnings);
      }
      return total;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['contacts', orgId, mailboxId] }),
  });
  return (
    <section aria-labelledby="import-heading" className="mt-6">
      <h2 id="import-heading" className="mb-2 text-base font-semibold">
        Import
      </h2>
      <form
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate();
        }}
      >
        <FilePicker id="vcf-file" label="vCard file (.vcf)" accept=".vcf,.vcard,text/vcard" onFile={setFile} />
        <SelectField
          label="Into address book"
          value={book}
          onChange={setBook}
          options={books.map((b) => ({ id: b.addressBookId, label: b.name }))}
        />
        <div>
          <Button type="submit" isDisabled={run.isPending || !file}>
            {run.isPending ? 'Importing…' : 'Import'}
          </Button>
        </div>
        <ErrorNote error={run.error} />
        {run.data && (
          <Done>
            Imported {run.data.imported}, updated {run.data.updated}, skipped {run.data.skipped}.
          </Done>
        )}
        {run.data && run.data.warnings.length > 0 && (
          <ul className="list-disc pl-5 text-xs text-amber-900">
            {run.data.warnings.slice(0, 20).map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
      </form>
    </section>
  );
}
