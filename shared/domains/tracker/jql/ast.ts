/** The tree the JQL parser builds (jql.peggy). Names are kept as written; compile.ts gives them meaning. */

/** Where a field or a value starts in the query (1-based line and column, 0-based offset). */
export interface JqlLocation {
  line: number;
  column: number;
  offset: number;
}

export interface FieldRef {
  type: 'field';
  /** As written (quotes removed); `cf[10010]` for a custom field by id. */
  name: string;
  /** The number inside `cf[…]`. */
  customId?: string;
  loc: JqlLocation;
}

export interface ValueOperand {
  type: 'value';
  value: string;
  /** Written in quotes (a quoted `EMPTY` is the word, not the keyword). */
  quoted: boolean;
  loc: JqlLocation;
}

export interface EmptyOperand {
  type: 'empty';
}

export interface FunctionOperand {
  type: 'function';
  name: string;
  args: string[];
  loc: JqlLocation;
}

export interface ListOperand {
  type: 'list';
  values: Operand[];
}

export type Operand = ValueOperand | EmptyOperand | FunctionOperand | ListOperand;

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~' | '!~' | 'in' | 'not in' | 'is' | 'is not';
export type WasOp = 'was' | 'was not' | 'was in' | 'was not in';

export interface HistoryPredicate {
  kind: 'after' | 'before' | 'on' | 'during' | 'by' | 'from' | 'to';
  /** A list of two operands for `during`. */
  value: Operand;
}

export interface CompareClause {
  type: 'compare';
  field: FieldRef;
  op: CompareOp;
  value: Operand;
}

export interface WasClause {
  type: 'was';
  field: FieldRef;
  op: WasOp;
  value: Operand;
  predicates: HistoryPredicate[];
}

export interface ChangedClause {
  type: 'changed';
  field: FieldRef;
  predicates: HistoryPredicate[];
}

export interface AndClause {
  type: 'and';
  clauses: Clause[];
}

export interface OrClause {
  type: 'or';
  clauses: Clause[];
}

export interface NotClause {
  type: 'not';
  clause: Clause;
}

export type Clause = CompareClause | WasClause | ChangedClause | AndClause | OrClause | NotClause;

export interface OrderItem {
  field: FieldRef;
  /** null: not written (ascending). */
  direction: 'asc' | 'desc' | null;
}

export interface JqlQuery {
  /** null for an empty query (every issue). */
  where: Clause | null;
  orderBy: OrderItem[];
}
