import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Contact } from '../../../../client';
import { api } from '../../lib/api';
import { useOrgId } from '../../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, Section, SelectField, TextArea, TextInput } from '../../ui/controls';
import { FilePicker, NO_MAILBOX, useMailbox } from './common';
import { Avatar, photoBody, usePhoto } from './photo';

type Typed = { value: string; type: string };
type Address = {
  type: 'home' | 'work' | 'other';
  street: string;
  locality: string;
  region: string;
  postalCode: string;
  country: string;
};
interface Form {
  given: string;
  family: string;
  organization: string;
  title: string;
  emails: Typed[];
  phones: Typed[];
  addresses: Address[];
  birthday: string;
  notes: string;
}

const EMPTY: Form = {
  given: '',
  family: '',
  organization: '',
  title: '',
  emails: [{ value: '', type: 'home' }],
  phones: [{ value: '', type: 'mobile' }],
  addresses: [],
  birthday: '',
  notes: '',
};

const TYPES = ['home', 'work', 'mobile', 'other'].map((id) => ({ id, label: id[0]?.toUpperCase() + id.slice(1) }));

function formOf(c: Contact): Form {
  return {
    given: c.name.given,
    family: c.name.family,
    organization: c.organization,
    title: c.title,
    emails: c.emails.map((e) => ({ value: e.value, type: (e as { type?: string }).type ?? 'other' })),
    phones: c.phones.map((e) => ({ value: e.value, type: (e as { type?: string }).type ?? 'other' })),
    addresses: c.addresses.map((a) => ({
      type: a.type,
      street: a.street,
      locality: a.locality,
      region: a.region,
      postalCode: a.postalCode,
      country: a.country,
    })),
    birthday: c.birthday ?? '',
    notes: c.notes,
  };
}

function bodyOf(f: Form, hadBirthday = false) {
  const fullName = [f.given, f.family]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
  return {
    ...(fullName ? { fullName } : {}),
    name: { given: f.given.trim(), family: f.family.trim() },
    organization: f.organization.trim(),
    title: f.title.trim(),
    emails: f.emails.filter((e) => e.value.trim()).map((e) => ({ value: e.value.trim(), type: e.type })),
    phones: f.phones.filter((e) => e.value.trim()).map((e) => ({ value: e.value.trim(), type: e.type })),
    addresses: f.addresses.filter((a) => Object.entries(a).some(([k, v]) => k !== 'type' && v.trim())),
    ...(f.birthday || hadBirthday ? { birthday: f.birthday } : {}),
    notes: f.notes,
  };
}

export default function ContactPage() {
  const orgId = useOrgId();
  const { addressBookId, contactId } = useParams();
  const { boxes, box } = useMailbox(orgId);
  if (boxes.isPending) return <Loading what="your mailboxes" />;
  if (boxes.error) return <ErrorNote error={boxes.error} />;
  if (!box) return <p>{NO_MAILBOX}</p>;
  return addressBookId && contactId ? (
    <Existing orgId={orgId} mailboxId={box.mailboxId} addressBookId={addressBookId} contactId={contactId} />
  ) : (
    <NewContact orgId={orgId} mailboxId={box.mailboxId} />
  );
}

const listOf = (orgId: string, mailboxId: string) => `/orgs/${orgId}/contacts?mailbox=${mailboxId}`;

function NewContact({ orgId, mailboxId }: { orgId: string; mailboxId: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const books = useQuery({
    queryKey: ['contacts', orgId, mailboxId, 'books'],
    queryFn: () => api().getMailMailboxesAddressBooks({ orgId, mailboxId }),
  });
  const [book, setBook] = useState(params.get('book') ?? '');
  const [photo, setPhoto] = useState<File | null>(null);
  const create = useMutation({
    mutationFn: async (f: Form) => {
      const addressBookId = book || (books.data?.addressBooks[0]?.addressBookId ?? '');
      const { contact } = await api().postMailMailboxesAddressBooksContacts({
        orgId,
        mailboxId,
        addressBookId,
        body: bodyOf(f),
      });
      if (photo)
        await api().putMailMailboxesContactsPhoto({
          orgId,
          mailboxId,
          contactId: contact.contactId,
          body: await photoBody(photo),
        });
      return contact;
    },
    onSuccess: async (c) => {
      await client.invalidateQueries({ queryKey: ['contacts', orgId, mailboxId] });
      navigate(`/orgs/${orgId}/contacts/${c.addressBookId}/${c.contactId}?mailbox=${mailboxId}`);
    },
  });
  if (books.isPending) return <Loading what="address books" />;
  if (books.error) return <ErrorNote error={books.error} />;
  return (
    <div>
      <p className="text-sm">
        <Link to={listOf(orgId, mailboxId)}>Back to contacts</Link>
      </p>
      <PageTitle title="New contact">New contact</PageTitle>
      <div className="mt-4 grid max-w-3xl gap-4">
        {books.data.addressBooks.length > 1 && (
          <SelectField
            label="Address book"
            value={book || (books.data.addressBooks[0]?.addressBookId ?? '')}
            onChange={setBook}
            options={books.data.addressBooks.map((b) => ({ id: b.addressBookId, label: b.name }))}
          />
        )}
        <FilePicker
          id="new-photo"
          label="Photo (JPEG, PNG, GIF or WebP, up to 1 MB)"
          accept="image/jpeg,image/png,image/gif,image/webp"
          onFile={setPhoto}
        />
      </div>
      <ContactForm initial={EMPTY} pending={create.isPending} error={create.error} onSubmit={(f) => create.mutate(f)} />
    </div>
  );
}

function Existing(props: { orgId: string; mailboxId: string; addressBookId: string; contactId: string }) {
  const { orgId, mailboxId } = props;
  const navigate = useNavigate();
  const client = useQueryClient();
  const ids = { orgId, mailboxId, addressBookId: props.addressBookId, contactId: props.contactId };
  const q = useQuery({
    queryKey: ['contacts', orgId, mailboxId, 'contact', props.contactId],
    queryFn: () => api().getMailMailboxesAddressBooksContactsByContactId(ids),
  });
  const c = q.data?.contact;
  const photo = usePhoto(orgId, mailboxId, c);
  const [file, setFile] = useState<File | null>(null);
  const [confirm, setConfirm] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: ['contacts', orgId, mailboxId] });
  const save = useMutation({
    mutationFn: (f: Form) =>
      api().putMailMailboxesAddressBooksContactsByContactId({
        ...ids,
        body: { ...bodyOf(f, Boolean(c?.birthday)), ifVersion: c?.version },
      }),
    onSuccess: refresh,
  });
  const upload = useMutation({
    mutationFn: async () => {
      if (!file) throw new Error('Choose an image first.');
      return api().putMailMailboxesContactsPhoto({
        orgId,
        mailboxId,
        contactId: props.contactId,
        body: await photoBody(file),
      });
    },
    onSuccess: refresh,
  });
  const unphoto = useMutation({
    mutationFn: () => api().deleteMailMailboxesContactsPhoto({ orgId, mailboxId, contactId: props.contactId }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api().deleteMailMailboxesAddressBooksContactsByContactId(ids),
    onSuccess: async () => {
      await refresh();
      navigate(listOf(orgId, mailboxId));
    },
  });
  if (q.isPending) return <Loading what="the contact" />;
  if (q.error || !c) return <ErrorNote error={q.error} />;
  return (
    <div>
      <p className="text-sm">
        <Link to={listOf(orgId, mailboxId)}>Back to contacts</Link>
      </p>
      <div className="flex flex-wrap items-center gap-4">
        <Avatar name={c.displayName} src={c.hasPhoto ? photo.data : null} size="large" />
        <div className="min-w-0">
          <PageTitle title={c.displayName || 'Contact'}>{c.displayName || '(No name)'}</PageTitle>
          <p className="text-sm text-slate-700">{[c.title, c.organization].filter(Boolean).join(', ')}</p>
        </div>
      </div>
      <Section title="Photo">
        <div className="grid max-w-xl gap-2">
          <FilePicker
            id="photo-file"
            label="New photo (JPEG, PNG, GIF or WebP, up to 1 MB)"
            accept="image/jpeg,image/png,image/gif,image/webp"
            onFile={setFile}
          />
          <div className="flex flex-wrap gap-2">
            <Button onPress={() => upload.mutate()} isDisabled={!file || upload.isPending}>
              Upload photo
            </Button>
            {c.hasPhoto && (
              <Button tone="danger" onPress={() => unphoto.mutate()} isDisabled={unphoto.isPending}>
                Remove photo
              </Button>
            )}
          </div>
          <ErrorNote error={upload.error ?? unphoto.error ?? photo.error} />
        </div>
      </Section>
      <Section title="Details">
        <ContactForm
          key={c.version}
          initial={formOf(c)}
          pending={save.isPending}
          error={save.error}
          onSubmit={(f) => save.mutate(f)}
          saved={save.isSuccess}
        />
      </Section>
      <div className="mt-8">
        {confirm ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span>Delete {c.displayName}?</span>
            <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
              Delete contact
            </Button>
            <Button onPress={() => setConfirm(false)}>Keep</Button>
          </div>
        ) : (
          <Button tone="danger" onPress={() => setConfirm(true)}>
            Delete…
          </Button>
        )}
        <ErrorNote error={remove.error} />
      </div>
    </div>
  );
}

function TypedList(props: {
  legend: string;
  what: string;
  items: Typed[];
  onChange: (items: Typed[]) => void;
  input: 'email' | 'text';
}) {
  const set = (i: number, patch: Partial<Typed>) =>
    props.onChange(props.items.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium">{props.legend}</legend>
      <ul className="space-y-2">
        {props.items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows being typed have no id
          <li key={i} className="grid grid-cols-[minmax(0,1fr)_7rem_auto] items-end gap-2">
            <TextInput
              label={`${props.what} ${i + 1}`}
              type={props.input}
              value={item.value}
              onChange={(value) => set(i, { value })}
            />
            <SelectField
              label="Type"
              value={TYPES.some((t) => t.id === item.type) ? item.type : 'other'}
              onChange={(type) => set(i, { type })}
              options={TYPES}
            />
            <Button
              aria-label={`Remove ${props.what.toLowerCase()} ${i + 1}`}
              onPress={() => props.onChange(props.items.filter((_, j) => j !== i))}
            >
              <span aria-hidden="true">×</span>
            </Button>
          </li>
        ))}
      </ul>
      <Button className="mt-2" onPress={() => props.onChange([...props.items, { value: '', type: 'home' }])}>
        Add {props.what.toLowerCase()}
      </Button>
    </fieldset>
  );
}

function ContactForm(props: {
  initial: Form;
  pending: boolean;
  error: unknown;
  onSubmit: (f: Form) => void;
  saved?: boolean;
}) {
  const [f, setF] = useState<Form>(props.initial);
  const set = (patch: Partial<Form>) => setF({ ...f, ...patch });
  const birthday = useId();
  const setAddress = (i: number, patch: Partial<Address>) =>
    set({ addresses: f.addresses.map((a, j) => (j === i ? { ...a, ...patch } : a)) });
  return (
    <form
      aria-label="Contact"
      className="mt-4 grid max-w-3xl gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(f);
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput label="First name" value={f.given} onChange={(given) => set({ given })} />
        <TextInput label="Last name" value={f.family} onChange={(family) => set({ family })} />
        <TextInput label="Company" value={f.organization} onChange={(organization) => set({ organization })} />
        <TextInput label="Job title" value={f.title} onChange={(title) => set({ title })} />
      </div>
      <TypedList
        legend="Email addresses"
        what="Email"
        input="email"
        items={f.emails}
        onChange={(emails) => set({ emails })}
      />
      <TypedList
        legend="Phone numbers"
        what="Phone"
        input="text"
        items={f.phones}
        onChange={(phones) => set({ phones })}
      />
      <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium">Addresses</legend>
        <ul className="space-y-3">
          {f.addresses.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows being typed have no id
            <li key={i} className="grid gap-2 sm:grid-cols-2">
              <TextInput
                label={`Street (address ${i + 1})`}
                value={a.street}
                onChange={(street) => setAddress(i, { street })}
              />
              <TextInput
                label={`City (address ${i + 1})`}
                value={a.locality}
                onChange={(locality) => setAddress(i, { locality })}
              />
              <TextInput
                label={`Region (address ${i + 1})`}
                value={a.region}
                onChange={(region) => setAddress(i, { region })}
              />
              <TextInput
                label={`Postal code (address ${i + 1})`}
                value={a.postalCode}
                onChange={(postalCode) => setAddress(i, { postalCode })}
              />
              <TextInput
                label={`Country (address ${i + 1})`}
                value={a.country}
                onChange={(country) => setAddress(i, { country })}
              />
              <div className="flex items-end gap-2">
                <SelectField
                  label={`Type (address ${i + 1})`}
                  className="flex-1"
                  value={a.type}
                  onChange={(type) => setAddress(i, { type })}
                  options={[
                    { id: 'home', label: 'Home' },
                    { id: 'work', label: 'Work' },
                    { id: 'other', label: 'Other' },
                  ]}
                />
                <Button onPress={() => set({ addresses: f.addresses.filter((_, j) => j !== i) })}>
                  Remove address {i + 1}
                </Button>
              </div>
            </li>
          ))}
        </ul>
        <Button
          className="mt-2"
          onPress={() =>
            set({
              addresses: [
                ...f.addresses,
                { type: 'home', street: '', locality: '', region: '', postalCode: '', country: '' },
              ],
            })
          }
        >
          Add address
        </Button>
      </fieldset>
      <div className="block text-sm">
        <label htmlFor={birthday} className="font-medium">
          Birthday
        </label>
        <input
          id={birthday}
          type="date"
          value={f.birthday.startsWith('--') ? '' : f.birthday}
          onChange={(e) => set({ birthday: e.target.value })}
          className="mt-1 block min-h-10 w-full max-w-xs rounded-md border border-slate-400 bg-white px-2.5 py-1.5 text-sm"
        />
      </div>
      <TextArea label="Notes" value={f.notes} onChange={(notes) => set({ notes })} />
      <div>
        <Button type="submit" tone="primary" isDisabled={props.pending}>
          {props.pending ? 'Saving…' : 'Save'}
        </Button>
        {props.saved && (
          <p role="status" className="mt-2 text-sm text-green-800">
            Saved.
          </p>
        )}
        <ErrorNote error={props.error} />
      </div>
    </form>
  );
}
