/** What the user is told of a sync's notices (conflicts settled, edits kept over deletes), in the CLI and in VS Code alike. */
import type { PlanNotice } from './syncPlan.ts';
import type { SecretsSent } from '../secrets/doorSecrets.ts';

export function noticeText(notice: PlanNotice): { message: string; conflict: boolean } {
  const conversation = notice.kind === 'conversation';
  const what = conversation ? `The conversation "${notice.name}"` : `"${notice.name}"`;
  switch (notice.notice) {
    case 'remote-rewound':
      return {
        message:
          `The remote ${notice.name} lost commits this machine had synced (a force-push, a restored backup or a recreated repository): ` +
          (notice.id !== ''
            ? `merged from the last commit both hold (${notice.id.slice(0, 12)}); what this machine synced since was sent back.`
            : 'it shares no history with this machine, so both libraries were joined: nothing was deleted here, and a record both hold kept the side whose version the other had before.'),
        conflict: false,
      };
    case 'conflict':
      return conversation
        ? {
            message:
              `${what} was changed on another machine too: where both changed the same thing its version is kept, and a message you changed is saved beside it.` +
              (notice.localName !== undefined ? ` You had named it "${notice.localName}" here.` : ''),
            conflict: false,
          }
        : { message: `${what} was changed on another machine too: its version is kept, and yours is saved as a conflict copy.`, conflict: true };
    case 'local-edit-kept':
      return { message: `${what} was deleted on another machine, but you changed it here: your change was kept.`, conflict: false };
    case 'remote-edit-kept':
      return { message: `${what} was deleted here, but changed on another machine: it is back, with that change.`, conflict: false };
  }
}

/**
 * What the user is told of records a sync could not apply here: they stay pending (retried at the
 * next sync, never taken as synced), so the user should know which and why.
 */
export function skippedText(skipped: ReadonlyArray<{ readonly id: string; readonly reason: string }>): string | undefined {
  if (skipped.length === 0) return undefined;
  const first = skipped[0]!;
  const more = skipped.length > 1 ? ` and ${skipped.length - 1} more` : '';
  return `${skipped.length === 1 ? 'A record' : `${skipped.length} records`} from the remote could not be applied here and will be tried again at the next sync: ${first.id} (${first.reason})${more}.`;
}

/** What the user is told of the copy of the store a sync took before deleting much of it. */
export function backupText(backup: string | undefined): string | undefined {
  return backup === undefined ? undefined : `The store was backed up before the sync's deletes: ${backup}, in the backups folder of the data directory.`;
}

/**
 * What the user is told of the snippets a sync sent that hold secrets (issue 32): how many went with their
 * values replaced by placeholders (the values stay on this machine), and, by name, those sent with their
 * values because the user chose so. Undefined when the sync sent none.
 */
export function secretsText(secrets: SecretsSent | undefined): string | undefined {
  if (secrets === undefined || (secrets.redacted === 0 && secrets.withSecrets.length === 0)) return undefined;
  const parts: string[] = [];
  if (secrets.redacted > 0) {
    parts.push(`${secrets.redacted === 1 ? '1 snippet holds' : `${secrets.redacted} snippets hold`} a secret: sent with placeholders, the values kept on this machine.`);
  }
  if (secrets.withSecrets.length > 0) {
    const names = secrets.withSecrets.slice(0, 3).map((s) => `"${s.name}"`).join(', ');
    const more = secrets.withSecrets.length > 3 ? ` and ${secrets.withSecrets.length - 3} more` : '';
    parts.push(`Sent with their secrets, as you chose: ${names}${more}.`);
  }
  return parts.join(' ');
}
