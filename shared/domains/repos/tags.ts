import { db } from '../../kernel/store/client';
import { DeleteCommand, PutCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { deleteMany, queryAll, queryPrefix } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { type GitPort, type GitTag, git } from '../../ports/git';

/**
 * The refs index: a repository's tags, kept beside its id (`REPOID#<repoId>`, `TAGREF#<name>`),
 * because CodeCommit's API lists no tags and resolves none. The git endpoint writes it after a
 * push, from git's own report of the refs that moved; the git-pushes worker reconciles it from the
 * storage's reference events (CodeCommit's on AWS, the local engine's here), so a tag moved by
 * anything else is caught up too. Written on both targets; read where the port lists no tags.
 *
 * What CodeCommit's event and git's push commands give of a tag is the object it names: for an
 * annotated tag the tag object, so `commit` is that object until an event names the commit, and
 * `annotated` is not known (false) where the index answers.
 */
interface TagItem {
  name: string;
  object: string;
  commit: string;
}

const PREFIX = PREFIXES.repos.tag;
const partition = (repoId: string) => `${PREFIXES.repos.repo}${repoId}`;
const tagKey = (repoId: string, name: string) => ({ pk: partition(repoId), sk: `${PREFIX}${name}` });

/** A tag moved: `next` null deleted it; `commit` when the source knows the commit it peels to. */
export interface TagMove {
  name: string;
  next: string | null;
  commit?: string;
}

/** Writes tag moves into the index (deletes of absent tags are fine). */
export async function indexTagMoves(repoId: string, moves: TagMove[]): Promise<void> {
  await Promise.all(
    moves.map((m) =>
      m.next === null
        ? db.send(new DeleteCommand({ TableName: TABLE(), Key: tagKey(repoId, m.name) }))
        : db.send(
            new PutCommand({
              TableName: TABLE(),
              Item: { ...tagKey(repoId, m.name), name: m.name, object: m.next, commit: m.commit ?? m.next },
            }),
          ),
    ),
  );
}

/** The indexed tags, by name. */
export async function indexedTags(repoId: string): Promise<GitTag[]> {
  const items = await queryPrefix<TagItem>(partition(repoId), PREFIX);
  return items
    .map((t) => ({ name: t.name, annotated: t.object !== t.commit, object: t.object, commit: t.commit }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Everything kept beside a repository's id (the tags index, archive records), when it is deleted. */
export async function removeRepoIndex(repoId: string): Promise<void> {
  const items = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition(repoId) },
    ProjectionExpression: 'pk, sk',
  });
  await deleteMany(items);
}

/**
 * The git port as the repository routes and the git endpoint use it: where the storage lists no
 * tags, `refs` lists the index's and `resolve` finds a tag by name there.
 */
export async function repoGit(): Promise<GitPort> {
  const port = git();
  return (await port.listsTags()) ? port : withIndexedTags(port);
}

/** `port` with the index's tags (its other methods as they are, `this` kept). */
export function withIndexedTags(port: GitPort): GitPort {
  const overrides: Pick<GitPort, 'refs' | 'resolve'> = {
    async refs(repoId) {
      const [refs, tags] = await Promise.all([port.refs(repoId), indexedTags(repoId)]);
      return { branches: refs.branches, tags };
    },
    async resolve(repoId, rev) {
      const found = await port.resolve(repoId, rev);
      if (found) return found;
      const tag = await getItem<TagItem>(tagKey(repoId, rev));
      return tag ? { kind: 'tag', commit: tag.commit } : null;
    },
  };
  return Object.assign(Object.create(port) as GitPort, overrides);
}
