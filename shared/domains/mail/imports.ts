import { DomainError, invalid } from '../../kernel/ground/errors';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { uploadLink } from './objects';

/**
 * The plumbing of a mailbox's file imports (calendars' .ics, address books' .vcf): a file in the
 * body up to 4 MB, else sent by presigned upload up to 50 MB, then taken a chunk a call with a
 * signed token naming the file (in the mailbox's folder, so removed with it) and where to go on.
 */
export const IMPORT_CHUNK = 200;
export const MAX_IMPORT_CONTENT_BYTES = 4 * 1024 * 1024;
export const MAX_IMPORT_UPLOAD_BYTES = 50 * 1024 * 1024;
/** An export larger than this goes by link (a Lambda response is at most 6 MB, JSON-escaped). */
export const MAX_INLINE_EXPORT_BYTES = 4 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  oneSource: 'Send one of `content`, `size` or `next`.',
  uploadTooLarge: 'An imported file can be at most 50 MB.',
  notUploaded: 'The file to import is not there: upload it first, or this import is finished.',
  badNext: 'Invalid import token. Start the import again.',
} as const;

export interface ImportAnswer {
  imported: number;
  updated: number;
  skipped: number;
  warnings: string[];
  next: string | null;
  done: boolean;
  upload?: { url: string; method: 'PUT'; headers: Record<string, string> };
}

/** The token of the next call: the file and where to go on; `scope` ties it to one import target. */
export const importToken = (scope: string, key: string, offset: number) => encodeCursor(scope, { key, offset });

/** An import's first call for a file sent by upload: the link to PUT it to (15 minutes), and the token. */
export async function startUpload(
  scope: string,
  key: string,
  contentType: string,
  size: number,
): Promise<ImportAnswer> {
  if (size > MAX_IMPORT_UPLOAD_BYTES) throw new DomainError('tooLarge', IMPORT_MESSAGES.uploadTooLarge);
  const url = await uploadLink(key, contentType, size, 900);
  return {
    imported: 0,
    updated: 0,
    skipped: 0,
    warnings: [],
    done: false,
    next: importToken(scope, key, 0),
    upload: { url, method: 'PUT', headers: { 'content-type': contentType } },
  };
}

/** A token back: signed for `scope`, naming a file of `folder` and an offset; else 400. */
export function readImportToken(scope: string, next: string, folder: string): { key: string; offset: number } {
  const token = decodeCursor<{ key: string; offset: number }>(scope, next);
  if (
    !token ||
    typeof token.key !== 'string' ||
    !token.key.startsWith(folder) ||
    !Number.isSafeInteger(token.offset) ||
    token.offset < 0
  ) {
    throw invalid(IMPORT_MESSAGES.badNext);
  }
  return token;
}
