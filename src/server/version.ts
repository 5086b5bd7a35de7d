/** Reported by GET /.well-known/version; kept in step with package.json by a test. */
export const SATCHEL_VERSION = '0.1.0';
