import * as z from 'zod/mini';

/**
 * The pages records declared once (a page's saved versions): the stored record (its type is what the domain code
 * reads and writes) and the shapes the history routes answer, registered by id so lib/openapi.ts
 * names them in `components.schemas` and the typed client declares them. Only documentation
 * (functions/pages/responses.ts) imports these values; code imports their types.
 */

/** One saved version as the table keeps it (`PGVER#<orgId>#<pageId>` / its number, 10 digits). */
export const PageVersionRecord = z.object({
  pk: z.string(),
  sk: z.string(),
  orgId: z.string(),
  pageId: z.string(),
  /** 1, 2, 3…: the page's `contentVersion` this content had. */
  n: z.number(),
  /** The page's title when the content was saved. */
  title: z.string(),
  /** The content's object in the artifacts bucket (shared with the page while it is current); null: empty. */
  contentKey: z.nullable(z.string()),
  /** The content's length in characters. */
  size: z.number(),
  createdAt: z.number(),
  /** Who saved it: a person's id or a key's. */
  createdBy: z.string(),
  /** The person's name (else email) when saved; null for keys. */
  authorName: z.nullable(z.string()),
  /** A restore: the version whose content this is. */
  restoredFrom: z.nullable(z.number()),
});
export type PageVersionRecord = z.output<typeof PageVersionRecord>;

/** A version as the history lists it (no content). */
export const PageVersion = z
  .object({
    n: z.number(),
    title: z.string(),
    size: z.number(),
    createdAt: z.number(),
    createdBy: z.string(),
    authorName: z.nullable(z.string()),
    restoredFrom: z.nullable(z.number()),
  })
  .register(z.globalRegistry, { id: 'PageVersion' });
export type PageVersion = z.output<typeof PageVersion>;
