/** Satchel's own version; kept in step with package.json by a test. */
export const SATCHEL_VERSION = '0.1.0';

/**
 * The Pieces OS version Satchel answers as (GET /.well-known/version and the connector's health):
 * the interface it serves is that of Pieces OS 12, and real clients refuse every command against a
 * version outside their supported range (the Pieces CLI accepts >= 12.0.0 and < 13.0.0). Satchel's
 * own version travels in the `x-satchel-version` header of the version reply.
 */
export const PIECES_OS_VERSION = '12.0.0';
