/**
 * A stored snippet read and scanned where its size costs the host nothing (the secrets worker): its
 * original text taken out of its document by SQLite on the worker's own read-only connection, its
 * texts hashed, scanned a window at a time, and each value found hashed, all with the store's key.
 * Read on the host's thread, one 60 MB text of an older store held its event loop 250–370 ms (SQLite
 * taking the text out of its document, then hashing it) during the one-off scan of the library.
 */
import { originalTextIn } from '../assets/originalText.ts';
import { detectSecrets, type SecretTexts } from './detector.ts';
import { scanInWindows } from './scanWindows.ts';
import { textsFingerprint, valueHash } from './secretRecords.ts';
import type { StoredScan, StoredScanResult } from './scanProtocol.ts';

/**
 * The snippet's original text and name, on a read-only connection opened for this read and closed
 * after it (a millisecond beside reading 60 MB): none is left open on a file the host may replace.
 */
function originalText(file: string, assetId: string): ReturnType<typeof originalTextIn> {
  // Loaded here, not at import: the extension's bundle holds this module and must load where node:sqlite is missing.
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    // The host may be writing: wait for its lock rather than fail.
    database.exec('PRAGMA busy_timeout = 5000');
    return originalTextIn(database, assetId);
  } finally {
    database.close();
  }
}

export async function scanStored(request: StoredScan): Promise<StoredScanResult> {
  const content = originalText(request.file, request.assetId);
  if (content === undefined) return { kind: 'missing' };
  const texts: SecretTexts = {
    code: content.binary ? '' : content.text,
    ...(content.name ? { name: content.name } : {}),
    ...(request.description ? { description: request.description } : {}),
  };
  const key = Buffer.from(request.key, 'hex');
  const fingerprint = textsFingerprint(key, texts);
  if (fingerprint === request.scanned) return { kind: 'unchanged', fingerprint };
  const found = await scanInWindows(texts, detectSecrets);
  const findings = found.map((finding) => ({ ...finding, valueHash: valueHash(key, (texts[finding.field] ?? '').slice(finding.start, finding.end)) }));
  return { kind: 'scanned', fingerprint, findings };
}
