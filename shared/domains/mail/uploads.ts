import { DomainError } from '../../kernel/ground/errors';
import { db } from '../../kernel/store/client';
import { PutCommand } from '../../kernel/store/commands';
import { newId } from '../../kernel/store/ids';
import { TABLE } from '../../kernel/store/table';
import { mailFolder } from './admin';
import { uploadLink } from './objects';
import { type Upload, uploadKey } from './send';
import { LIMITS } from './usage';

export const ATTACHMENT_MESSAGES = { tooLarge: 'Attachments can be at most 25 MB.' } as const;
const UPLOAD_SECONDS = 15 * 60;

/**
 * An attachment's upload: a presigned PUT bound to its type and size (15 minutes), its record kept
 * a day (`ttl`) for send and drafts to name it.
 */
export async function createUpload(mailboxId: string, input: { filename: string; contentType: string; size: number }) {
  if (input.size > LIMITS.messageBytes) throw new DomainError('tooLarge', ATTACHMENT_MESSAGES.tooLarge);
  const uploadId = newId('upl_');
  const key = `${mailFolder(mailboxId)}uploads/${uploadId}`;
  const expiresAt = Date.now() + UPLOAD_SECONDS * 1000;
  const upload: Upload = { uploadId, key, ...input, expiresAt };
  await db.send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...uploadKey(mailboxId, uploadId), ...upload, ttl: Math.floor(expiresAt / 1000) + 86_400 },
    }),
  );
  return {
    uploadId,
    filename: input.filename,
    contentType: input.contentType,
    size: input.size,
    url: await uploadLink(key, input.contentType, input.size, UPLOAD_SECONDS),
    method: 'PUT' as const,
    headers: { 'content-type': input.contentType },
    expiresAt,
  };
}
