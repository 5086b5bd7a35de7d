/**
 * The old name of piecesTypes.ts, kept only for modules another branch owns while this rename
 * lands (src/core/sync, src/core/classify and their tests): import piecesTypes.ts, and delete this file once
 * nothing imports it.
 */
export type * from './piecesTypes.ts';
