import * as z from 'zod/mini';
import { refNameProblem } from '../../ports/git/names';

/** A branch name as a repository takes it (a default branch, a new branch): git's own rules (check-ref-format). */
export const BranchName = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(256),
  z.refine((v) => !refNameProblem(v), 'Use a valid branch name (git check-ref-format).'),
);
