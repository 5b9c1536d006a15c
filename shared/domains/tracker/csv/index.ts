/**
 * Issue files for the tracker's import and export: Jira's CSV ("Export CSV (all fields)") and this
 * API's JSON export, read into import records (issue-create fields plus status, dates, comments,
 * sprints, links) and written from stored issues. Pure: no I/O, no catalog look-ups.
 */
export { readDate, readDay, writeDate, writeDay } from './dates';
export { JSON_EXPORT_FORMAT, type JsonExport, readJsonExport, writeJsonExport } from './json';
export { type CatalogNames, catalogNames } from './names';
export { countCsvRecords, parseCsvRecords, readJiraCsv, unneutralise } from './read';
export type * from './types';
export { neutralise, type WriteOptions, writeJiraCsv } from './write';
