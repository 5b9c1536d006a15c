import { describeError, log } from '../../../kernel/ground/log';
import { builds } from '../../../ports/builds';
import { deleteRepository, repoById } from '../records';
import { IMPORT_M, type ImportRecord, moveImport, overdueImports } from './records';

/**
 * Ends an import that was stopped or is being swept: its build stopped (a job still alive stops at
 * its next progress write anyway, the import being final) and the repository it was filling
 * removed, with its storage and LFS objects. The cancel route and the sweep share it.
 */
export async function removeImportWork(r: ImportRecord): Promise<void> {
  if (r.buildId) await builds().cancel(r.buildId);
  const left = await repoById(r.repoId);
  if (left && left.importId === r.importId) await deleteRepository(left);
}

/**
 * Imports whose job crashed (its process or build gone without a final state) would stay `queued`
 * or `running` for ever: the hourly `repo-imports-sweep` worker (lib/workers.ts) marks those past
 * the job's time limit failed, first (so a job still alive stops at its next progress write and
 * can't succeed after), then removes what they left. Safe to repeat: an import finished meanwhile
 * is left alone (moveImport's condition). A removal that fails is logged with the repository's id.
 */
export async function sweepOverdueImports(now = Date.now()): Promise<{ swept: number; failed: number }> {
  let swept = 0;
  let failed = 0;
  for (const r of await overdueImports(now)) {
    if (!(await moveImport(r, { state: 'failed', message: IMPORT_M.overdue }))) continue;
    try {
      await removeImportWork(r);
      swept++;
    } catch (err) {
      failed++;
      log.error('repository import sweep: what the import left was not removed', {
        importId: r.importId,
        repoId: r.repoId,
        error: describeError(err),
      });
    }
  }
  return { swept, failed };
}
