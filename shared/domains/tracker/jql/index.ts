/**
 * JQL for the tracker: parse (peggy grammar compiled at build time into parser.ts), compile against
 * a context (names → ids), then narrow the read, filter and sort in memory. Only the tracker
 * (shared/domains/tracker, functions/tracker) imports this.
 *
 *   const compiled = await compileJql(jql, ctx, { order });  // throws JqlError (400)
 *   read issues within compiled.narrow, keep compiled.matches, sort with compiled.compare
 */
export type * from './ast';
export { type CatalogInput, catalogContext, type Named } from './catalog';
export {
  type CompiledJql,
  type CompileOptions,
  compareKeys,
  compileJql,
  type DefaultOrder,
  type JqlContext,
  type JqlNarrow,
  pushNots,
  withinNarrow,
} from './compile';
export { JqlError } from './errors';
export { type Catalog, type JqlIssue, SYSTEM_FIELDS, systemField } from './fields';
export { JQL_MAX_LENGTH, parseJql } from './parse';
