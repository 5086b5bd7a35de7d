/**
 * The old name of specifics.ts, kept only for src/core/sync/libraryRecords.ts, which another
 * branch owns while this rename lands: import specifics.ts, and delete this file once nothing
 * imports it.
 */
export { isKnownSpecific } from './specifics.ts';
