import { buffer } from 'node:stream/consumers';
import {
  CodeCommitClient,
  CreateBranchCommand,
  CreateCommitCommand,
  CreateRepositoryCommand,
  DeleteBranchCommand,
  GetBlobCommand,
  GetBranchCommand,
  GetCommitCommand,
  GetFileCommand,
  GetFolderCommand,
  GetMergeConflictsCommand,
  GetMergeOptionsCommand,
  ListBranchesCommand,
  MergeBranchesByFastForwardCommand,
  MergeBranchesBySquashCommand,
  MergeBranchesByThreeWayCommand,
} from '@aws-sdk/client-codecommit';
import { mockClient } from 'aws-sdk-client-mock';
import { unzipSync } from 'fflate';
import { awsGit } from '../../shared/ports/git/aws';
import { GitArchiveError, GitChangeError, GitConflict, GitInputError, GitTooFar } from '../../shared/ports/git/port';

/**
 * The git port's AWS adapter against the CodeCommit calls it must make (aws-sdk-client-mock):
 * names by prefix, CodeCommit's own compare-and-swap mapped to GitConflict, its refusals to the
 * port's errors, its dates to epoch ms.
 */
const cc = mockClient(CodeCommitClient);
afterEach(() => cc.reset());
const err = (name: string) => Object.assign(new Error(name), { name });
const sha = (c: string) => c.repeat(40);

it('creates a repository by prefixed name; an existing one is kept', async () => {
  cc.on(CreateRepositoryCommand).resolvesOnce({}).rejectsOnce(err('RepositoryNameExistsException'));
  await awsGit().create('res_1', 'main');
  await awsGit().create('res_1', 'main');
  expect(cc.commandCalls(CreateRepositoryCommand).map((c) => c.args[0].input.repositoryName)).toEqual([
    'plt-repo-res_1',
    'plt-repo-res_1',
  ]);
});

it('refs: every branch with its commit; resolve by branch or commit', async () => {
  cc.on(ListBranchesCommand)
    .resolvesOnce({ branches: ['main'], nextToken: 't' })
    .resolvesOnce({ branches: ['dev'] });
  cc.on(GetBranchCommand, { branchName: 'main' }).resolves({ branch: { commitId: sha('a') } });
  cc.on(GetBranchCommand, { branchName: 'dev' }).resolves({ branch: { commitId: sha('b') } });
  expect(await awsGit().refs('res_1')).toEqual({
    branches: [
      { name: 'main', commit: sha('a') },
      { name: 'dev', commit: sha('b') },
    ],
    tags: [],
  });
  cc.on(GetCommitCommand).resolves({
    commit: {
      commitId: sha('c'),
      message: 'Hello\n',
      author: { name: 'Ada', email: 'ada@example.com', date: '1795584000 +0000' },
      committer: { date: '1795584060 +0000' },
      parents: [sha('a')],
    },
  });
  expect(await awsGit().resolve('res_1', 'main')).toEqual({ kind: 'branch', commit: sha('a') });
  expect(await awsGit().resolve('res_1', sha('c'))).toEqual({ kind: 'commit', commit: sha('c') });
  expect(await awsGit().commitInfo('res_1', sha('c'))).toEqual({
    id: sha('c'),
    message: 'Hello',
    author: { name: 'Ada', email: 'ada@example.com', date: 1795584000000 },
    committedAt: 1795584060000,
    parents: [sha('a')],
  });
});

it('commits with CodeCommit compare-and-swap: an outdated parent is GitConflict, no change is null', async () => {
  cc.on(CreateCommitCommand)
    .resolvesOnce({ commitId: sha('d') })
    .rejectsOnce(err('ParentCommitIdOutdatedException'))
    .rejectsOnce(err('NoChangeException'))
    .rejectsOnce(err('FileDoesNotExistException'));
  const input = {
    branch: 'main',
    parent: sha('a'),
    changes: [
      { action: 'put' as const, path: 'a.txt', content: Buffer.from('a') },
      { action: 'move' as const, from: 'b.txt', path: 'c.txt' },
      { action: 'delete' as const, path: 'd.txt' },
    ],
    message: 'm',
    author: { name: 'Ada', email: 'ada@example.com' },
  };
  expect(await awsGit().commit('res_1', input)).toEqual({ commitId: sha('d') });
  expect(cc.commandCalls(CreateCommitCommand)[0]?.args[0].input).toMatchObject({
    repositoryName: 'plt-repo-res_1',
    branchName: 'main',
    parentCommitId: sha('a'),
    putFiles: [
      { filePath: 'a.txt', fileContent: Buffer.from('a') },
      { filePath: 'c.txt', sourceFile: { filePath: 'b.txt', isMove: true } },
    ],
    deleteFiles: [{ filePath: 'd.txt' }],
  });
  await expect(awsGit().commit('res_1', input)).rejects.toBeInstanceOf(GitConflict);
  expect(await awsGit().commit('res_1', input)).toEqual({ commitId: null });
  await expect(awsGit().commit('res_1', input)).rejects.toBeInstanceOf(GitChangeError);
  await expect(
    awsGit().commit('res_1', { ...input, changes: [{ action: 'put', path: '../x', content: Buffer.from('') }] }),
  ).rejects.toBeInstanceOf(GitInputError);
});

it('branch create and delete check the expected commit first', async () => {
  cc.on(GetBranchCommand).rejects(err('BranchDoesNotExistException'));
  cc.on(CreateBranchCommand).resolvesOnce({}).rejectsOnce(err('BranchNameExistsException'));
  await awsGit().setRef('res_1', 'refs/heads/feature', sha('a'), null);
  await expect(awsGit().setRef('res_1', 'refs/heads/feature', sha('a'), null)).rejects.toBeInstanceOf(GitConflict);
  await expect(awsGit().setRef('res_1', 'refs/heads/feature', null, sha('a'))).rejects.toBeInstanceOf(GitConflict);
  cc.on(GetBranchCommand).resolves({ branch: { commitId: sha('a') } });
  cc.on(DeleteBranchCommand).resolves({});
  await awsGit().setRef('res_1', 'refs/heads/feature', null, sha('a'));
  expect(cc.commandCalls(DeleteBranchCommand)).toHaveLength(1);
  await expect(awsGit().setRef('res_1', 'refs/tags/v1', sha('a'), null)).rejects.toBeInstanceOf(GitInputError);
});

it('reads a file up to a size; a missing one is null', async () => {
  cc.on(GetFileCommand, { filePath: 'a.txt' }).resolves({ fileContent: Buffer.from('hello'), fileSize: 5 });
  cc.on(GetFileCommand, { filePath: 'big.bin' }).resolves({ fileContent: Buffer.alloc(10), fileSize: 10 });
  cc.on(GetFileCommand, { filePath: 'nope' }).rejects(err('FileDoesNotExistException'));
  expect(await awsGit().readFile('res_1', sha('a'), 'a.txt', 100)).toEqual({
    content: Buffer.from('hello'),
    size: 5,
  });
  expect(await awsGit().readFile('res_1', sha('a'), 'big.bin', 5)).toEqual({ tooLarge: true, size: 10 });
  expect(await awsGit().readFile('res_1', sha('a'), 'nope', 5)).toBeNull();
});

describe('archives: CodeCommit makes none, so the adapter writes one from the tree', () => {
  const commit = { commitId: sha('c'), committer: { date: '1767225600 +0000' }, author: {}, parents: [] };
  const tree = () => {
    cc.on(GetCommitCommand).resolves({ commit });
    cc.on(GetFolderCommand, { folderPath: '/' }).resolves({
      files: [{ absolutePath: 'README.md', blobId: 'b1', fileMode: 'NORMAL' }],
      subFolders: [{ absolutePath: 'bin' }],
    });
    cc.on(GetFolderCommand, { folderPath: 'bin' }).resolves({
      files: [{ absolutePath: 'bin/run', blobId: 'b2', fileMode: 'EXECUTABLE' }],
    });
  };

  it('every file of the commit, read blob by blob, in a zip', async () => {
    tree();
    cc.on(GetBlobCommand, { blobId: 'b1' }).resolves({ content: Buffer.from('# Hi\n') });
    cc.on(GetBlobCommand, { blobId: 'b2' }).resolves({ content: Buffer.from('#!/bin/sh\n') });
    const zip = await buffer(await awsGit().archive('res_1', sha('c'), 'zip'));
    const files = unzipSync(new Uint8Array(zip));
    expect(Object.keys(files).sort()).toEqual(['README.md', 'bin/run']);
    expect(Buffer.from(files['README.md'] as Uint8Array).toString()).toBe('# Hi\n');
    expect(cc.commandCalls(GetBlobCommand).map((c) => c.args[0].input)).toEqual([
      { repositoryName: 'plt-repo-res_1', blobId: 'b1' },
      { repositoryName: 'plt-repo-res_1', blobId: 'b2' },
    ]);
  });

  it('a file CodeCommit will not hand out is a GitArchiveError naming it, not a short archive', async () => {
    tree();
    cc.on(GetBlobCommand, { blobId: 'b1' }).resolves({ content: Buffer.from('# Hi\n') });
    cc.on(GetBlobCommand, { blobId: 'b2' }).rejects(err('FileTooLargeException'));
    const archive = await awsGit().archive('res_1', sha('c'), 'tar.gz');
    await expect(buffer(archive)).rejects.toThrow(GitArchiveError);
    const again = await awsGit().archive('res_1', sha('c'), 'zip');
    await expect(buffer(again)).rejects.toThrow(
      'bin/run is too large for an archive here. Clone the repository instead.',
    );
  });

  it('a commit that does not exist is a GitArchiveError', async () => {
    tree();
    cc.on(GetCommitCommand).rejects(err('CommitIdDoesNotExistException'));
    await expect(awsGit().archive('res_1', sha('d'), 'zip')).rejects.toThrow(GitArchiveError);
  });
});

describe('merges: CodeCommit merges on its side, after the target is checked', () => {
  const input = {
    target: 'main',
    targetCommit: sha('a'),
    source: sha('b'),
    message: 'Feature (#1)',
    author: { name: 'Ada', email: 'ada@example.com' },
    committer: { name: 'Grace', email: 'grace@example.com' },
  };

  it('each strategy is its MergeBranchesBy* call on the commit read', async () => {
    cc.on(GetBranchCommand).resolves({ branch: { commitId: sha('a') } });
    cc.on(MergeBranchesBySquashCommand).resolves({ commitId: sha('c') });
    cc.on(MergeBranchesByFastForwardCommand).resolves({ commitId: sha('b') });
    expect(await awsGit().merge('res_1', { ...input, strategy: 'squash' })).toEqual({ commitId: sha('c') });
    expect(cc.commandCalls(MergeBranchesBySquashCommand)[0]?.args[0].input).toEqual({
      repositoryName: 'plt-repo-res_1',
      sourceCommitSpecifier: sha('b'),
      destinationCommitSpecifier: sha('a'),
      targetBranch: 'main',
      authorName: 'Ada',
      email: 'ada@example.com',
      commitMessage: 'Feature (#1)',
      conflictDetailLevel: 'LINE_LEVEL',
    });
    expect(await awsGit().merge('res_1', { ...input, strategy: 'fast-forward' })).toEqual({ commitId: sha('b') });
  });

  it('a moved target is GitConflict before any merge; CodeCommit refusals map to the port errors', async () => {
    cc.on(GetBranchCommand).resolvesOnce({ branch: { commitId: sha('f') } });
    await expect(awsGit().merge('res_1', { ...input, strategy: 'three-way' })).rejects.toThrow(GitConflict);
    expect(cc.commandCalls(MergeBranchesByThreeWayCommand)).toHaveLength(0);
    cc.on(GetBranchCommand).resolves({ branch: { commitId: sha('a') } });
    cc.on(MergeBranchesByThreeWayCommand)
      .rejectsOnce(err('ManualMergeRequiredException'))
      .rejectsOnce(err('ConcurrentReferenceUpdateException'));
    await expect(awsGit().merge('res_1', { ...input, strategy: 'three-way' })).rejects.toThrow(GitChangeError);
    await expect(awsGit().merge('res_1', { ...input, strategy: 'three-way' })).rejects.toThrow(GitConflict);
  });
});

it('merge options: conflicts by line as git merges, every page of GetMergeConflicts, binary and kind mapped', async () => {
  cc.on(GetMergeOptionsCommand).resolves({ baseCommitId: sha('e'), mergeOptions: ['SQUASH_MERGE'] });
  const file = (filePath: string, more: object) => ({ filePath, numberOfConflicts: 1, ...more });
  cc.on(GetMergeConflictsCommand)
    .resolvesOnce({
      conflictMetadataList: [
        file('two.txt', { numberOfConflicts: 2, contentConflict: true }),
        file('img.bin', { contentConflict: true, isBinaryFile: { source: true, destination: true, base: true } }),
      ],
      nextToken: 'page-2',
    })
    .resolvesOnce({
      conflictMetadataList: [file('run.sh', { fileModeConflict: true }), file('spot', { objectTypeConflict: true })],
    });
  expect(await awsGit().mergeOptions('res_1', sha('a'), sha('b'))).toEqual({
    mergeBase: sha('e'),
    options: ['squash'],
    conflicts: [
      { path: 'img.bin', conflicts: 1, binary: true, kind: 'content' },
      { path: 'run.sh', conflicts: 1, binary: false, kind: 'mode' },
      { path: 'spot', conflicts: 1, binary: false, kind: 'type' },
      { path: 'two.txt', conflicts: 2, binary: false, kind: 'content' },
    ],
  });
  expect(cc.commandCalls(GetMergeOptionsCommand)[0]?.args[0].input.conflictDetailLevel).toBe('LINE_LEVEL');
  const pages = cc.commandCalls(GetMergeConflictsCommand).map((c) => c.args[0].input);
  expect(pages).toEqual([
    {
      repositoryName: 'plt-repo-res_1',
      sourceCommitSpecifier: sha('b'),
      destinationCommitSpecifier: sha('a'),
      mergeOption: 'THREE_WAY_MERGE',
      conflictDetailLevel: 'LINE_LEVEL',
      nextToken: undefined,
    },
    expect.objectContaining({ nextToken: 'page-2', conflictDetailLevel: 'LINE_LEVEL' }),
  ]);
});

it('isAncestor: the merge base of merging the ancestor into the descendant is the ancestor itself', async () => {
  cc.on(GetMergeOptionsCommand)
    .resolvesOnce({ baseCommitId: sha('a'), mergeOptions: [] })
    .resolvesOnce({ baseCommitId: sha('e'), mergeOptions: ['THREE_WAY_MERGE'] })
    .rejectsOnce(err('TipsDivergenceExceededException'));
  expect(await awsGit().isAncestor('res_1', sha('a'), sha('b'))).toBe(true);
  expect(cc.commandCalls(GetMergeOptionsCommand)[0]?.args[0].input).toMatchObject({
    sourceCommitSpecifier: sha('a'),
    destinationCommitSpecifier: sha('b'),
  });
  expect(await awsGit().isAncestor('res_1', sha('a'), sha('b'))).toBe(false);
  await expect(awsGit().isAncestor('res_1', sha('a'), sha('b'))).rejects.toThrow(GitTooFar);
  expect(await awsGit().isAncestor('res_1', sha('c'), sha('c'))).toBe(true);
  expect(cc.commandCalls(GetMergeOptionsCommand)).toHaveLength(3);
});

it('merge base: GetMergeOptions answers it (CodeCommit has no merge-base call); too far apart is GitTooFar', async () => {
  cc.on(GetMergeOptionsCommand)
    .resolvesOnce({ baseCommitId: sha('e'), mergeOptions: [] })
    .rejectsOnce(err('TipsDivergenceExceededException'));
  expect(await awsGit().mergeBase('res_1', sha('a'), sha('b'))).toBe(sha('e'));
  expect(cc.commandCalls(GetMergeOptionsCommand)[0]?.args[0].input).toEqual({
    repositoryName: 'plt-repo-res_1',
    sourceCommitSpecifier: sha('b'),
    destinationCommitSpecifier: sha('a'),
    conflictDetailLevel: 'LINE_LEVEL',
  });
  await expect(awsGit().mergeBase('res_1', sha('a'), sha('b'))).rejects.toThrow(GitTooFar);
});
