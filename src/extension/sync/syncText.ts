/** What the user is told of a sync's notices (conflict copies, edits kept over deletes): core's words, shared with the CLI. */
export { noticeText } from '../../core/sync/syncNotices.ts';
