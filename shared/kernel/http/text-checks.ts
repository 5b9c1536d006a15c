import * as z from 'zod/mini';
import { isOneLine, isPlainText, TEXT_MESSAGES } from '../ground/text';

/**
 * The text rule (shared/kernel/ground/text.ts) as schema checks, apart from the rule itself so
 * that zod loads with the route modules that declare schemas, never with the stack at start.
 */
/** For names, paths, branches, commands, hosts and keys: `z.string().check(oneLine, …)`. */
export const oneLine = z.refine<string>(isOneLine, TEXT_MESSAGES.oneLine);
/** For free text (descriptions, bodies, comments): keeps tabs and line breaks. */
export const plainText = z.refine<string>(isPlainText, TEXT_MESSAGES.plainText);
