/**
 * Spec part B, "Label": the colors a repository's label takes. Its own file, so that both the
 * label's record schema (./record-schemas.ts) and the routes' body (through ./labels.ts) read it.
 */
export const LABEL_COLORS = [
  'chart-1',
  'chart-2',
  'chart-3',
  'chart-4',
  'chart-5',
  'destructive',
  'primary',
  'muted-foreground',
] as const;
