/** Sizes as people read them, for the extension, the command line and core's own messages. */

/** Bytes in MiB with one decimal ("12.3"), as backup messages give sizes (labelled MB there). */
export function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

/** "312 B", "1.2 KB", "4.0 MB", "12 MB": powers of 1,024, as the store counts, one decimal below 10. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
