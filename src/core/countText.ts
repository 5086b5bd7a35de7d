/**
 * 62914560 → "62,914,560": what `toLocaleString('en-US')` writes for a whole number, without Intl.
 * The first number formatter of a process pages in ICU's locale data (7.5 MB of a host's resident
 * memory for as long as it runs) to write a count in an error message.
 */
export function countText(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value);
  const digits = String(Math.abs(value));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) grouped = digits.slice(Math.max(0, end - 3), end) + (grouped ? `,${grouped}` : '');
  return value < 0 ? `-${grouped}` : grouped;
}
