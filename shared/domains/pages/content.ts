import { artifactsBucket } from '../../kernel/config';
import { newId } from '../../kernel/store/ids';
import { storage } from '../../ports/object-storage';
import { presignedCall } from '../../ports/object-storage/presigned';

/**
 * Page content: Markdown in the artifacts bucket, one object per saved version
 * (`pages/<orgId>/<pageId>/<contentId>.md`), so a save that loses the version race never
 * overwrites the winner's, the search index can still read what it indexed before, and every
 * version of the page (./versions.ts) keeps its own until the page is deleted. Bytes
 * travel through short presigned links, as the other groups' files do.
 */
const TYPE = 'text/markdown; charset=utf-8';
const bucket = () => ({ name: artifactsBucket() });
const folder = (orgId: string, pageId: string) => `pages/${orgId}/${pageId}/`;

/** Writes a new object of the page's content and answers its key. */
export async function writeContent(orgId: string, pageId: string, markdown: string): Promise<string> {
  const key = `${folder(orgId, pageId)}${newId('pc_')}.md`;
  const body = Buffer.from(markdown, 'utf8');
  const url = () => storage().presignPut(bucket(), key, { contentType: TYPE, size: body.length, expiresIn: 60 });
  const res = await presignedCall(url, { method: 'PUT', headers: { 'content-type': TYPE }, body });
  if (res.status >= 300) throw new Error(`Writing page content failed (HTTP ${res.status}).`);
  return key;
}

/** The content of an object; '' for no key; undefined when the object is gone. */
export async function readContent(key: string | null | undefined): Promise<string | undefined> {
  if (!key) return '';
  const res = await presignedCall(() => storage().presignGet(bucket(), key, { expiresIn: 60 }));
  if (res.status === 404) return undefined;
  if (res.status >= 300) throw new Error(`Reading page content failed (HTTP ${res.status}).`);
  return res.body.toString('utf8');
}

/** Deletes content objects (a version nobody reads any more). */
export async function removeContent(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const out = await storage().deleteKeys(bucket(), keys);
  if (out.errors.length > 0) throw new Error(`Deleting page content failed: ${out.errors[0]?.message}`);
}

/** Deletes every content object of a page. */
export async function removeAllContent(orgId: string, pageId: string): Promise<void> {
  let token: string | undefined;
  do {
    const page = await storage().listKeys(bucket(), folder(orgId, pageId), 1000, token);
    await removeContent(page.keys.map((k) => k.key));
    token = page.truncated ? page.nextToken : undefined;
  } while (token);
}
