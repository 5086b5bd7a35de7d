/**
 * The one error type the client throws: an HTTP error reply (status and the server's `{error:{code,message}}`),
 * or a transport failure (status 0, code `unreachable`), so callers branch on fields, not on error classes.
 */
export class ClientError extends Error {
  readonly status: number;
  readonly code: string;
  /** For a conditional write refused with 412 (`stale_revision`): the asset's current revision, to read again and retry on. */
  readonly currentRevision: string | undefined;

  constructor(status: number, code: string, message: string, options?: { cause?: unknown; currentRevision?: string | undefined }) {
    super(message, options);
    this.name = 'ClientError';
    this.status = status;
    this.code = code;
    this.currentRevision = options?.currentRevision;
  }

  /** A conditional write found the asset changed since the revision it was based on (nothing was written). */
  get staleRevision(): boolean {
    return this.code === 'stale_revision';
  }

  get unreachable(): boolean {
    return this.status === 0;
  }

  get notFound(): boolean {
    return this.status === 404;
  }

  /** Builds the error from a non-2xx reply; a body that is not the server's JSON error keeps its text. */
  static fromReply(status: number, text: string): ClientError {
    try {
      const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; currentRevision?: unknown } };
      const { code, message, currentRevision } = parsed.error ?? {};
      if (typeof code === 'string' && typeof message === 'string') {
        return new ClientError(status, code, message, typeof currentRevision === 'string' ? { currentRevision } : {});
      }
    } catch {
      // Not JSON: fall through.
    }
    return new ClientError(status, `http_${status}`, text.trim().slice(0, 500) || `HTTP ${status}`);
  }

  static unreachableAt(url: string, cause: unknown): ClientError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new ClientError(0, 'unreachable', `Cannot reach Satchel at ${url}: ${reason}`, { cause });
  }
}
