import { useQuery } from '@tanstack/react-query';
import type { Contact } from '../../../../client';
import { api } from '../../lib/api';

/** A contact's initials, or its photo. */
export function Avatar({ name, src, size = 'small' }: { name: string; src?: string | null; size?: 'small' | 'large' }) {
  const box = size === 'large' ? 'size-24 text-2xl' : 'size-9 text-sm';
  if (src) return <img src={src} alt={name} className={`${box} shrink-0 rounded-full object-cover`} />;
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase())
      .join('') || '?';
  return (
    <span
      aria-hidden="true"
      className={`${box} flex shrink-0 items-center justify-center rounded-full bg-slate-600 font-semibold text-white`}
    >
      {initials}
    </span>
  );
}

/** The PHOTO of the card with `uid` in a vCard 4.0 file, as a data: URL. */
export function photoInCard(vcf: string, uid: string): string | null {
  const text = vcf.replace(/\r?\n[ \t]/g, '');
  for (const card of text.split(/^BEGIN:VCARD\r?$/m)) {
    const u = /^UID[^:\r\n]*:(.*?)\r?$/m.exec(card)?.[1];
    if (u !== uid) continue;
    const photo = /^PHOTO[^:\r\n]*:(data:image\/[a-z+.-]+;base64,[A-Za-z0-9+/=]+)\r?$/m.exec(card)?.[1];
    return photo ?? null;
  }
  return null;
}

/**
 * The contact's photo for an <img>. The photo route answers a presigned link to the bucket, which
 * the app's Content-Security-Policy doesn't let an image load from (img-src is the app's own
 * origin, data: and blob:); the address book's vCard 4.0 export carries photos inline, so the
 * photo is read from there (the export is read again when the contact's version moves).
 */
export function usePhoto(orgId: string, mailboxId: string, c: Contact | undefined) {
  return useQuery({
    queryKey: ['contacts', orgId, mailboxId, 'photo', c?.contactId, c?.version],
    enabled: Boolean(c?.hasPhoto),
    queryFn: async () => {
      const vcf = await api().getMailMailboxesAddressBooksExport({
        orgId,
        mailboxId,
        addressBookId: (c as Contact).addressBookId,
        version: '4.0',
      });
      return photoInCard(vcf, (c as Contact).uid);
    },
  });
}

/** A picked image file as the photo route's body. */
export async function photoBody(file: File) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const known = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
  const contentType = known.find((t) => t === file.type) ?? 'image/png';
  return { contentType, data: btoa(binary) };
}
