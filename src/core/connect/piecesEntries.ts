/**
 * Recognising an agent's entry for Pieces OS: one that reaches PiecesOS's MCP paths on this machine
 * (`http://localhost:39300/model_context_protocol/2025-03-26/mcp`, `…/2024-11-05/sse`), directly or
 * through a bridge such as `npx mcp-remote <url>`, on any port PiecesOS may take (39300–39333, and
 * 1000 for older versions).
 */
const PIECES_URL = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::(\d+))?\/model_context_protocol\//i;

export function isPiecesUrl(text: string): boolean {
  const port = PIECES_URL.exec(text.trim())?.[1];
  if (port === undefined) return false;
  const number = Number(port);
  return (number >= 39300 && number <= 39333) || number === 1000;
}

/** Whether any string in `entry` (its url, serverUrl, httpUrl, uri, or a bridge's arguments) is a Pieces URL. */
export function isPiecesEntry(entry: unknown): boolean {
  if (typeof entry === 'string') return isPiecesUrl(entry);
  if (Array.isArray(entry)) return entry.some(isPiecesEntry);
  if (typeof entry === 'object' && entry !== null) return Object.values(entry).some(isPiecesEntry);
  return false;
}
