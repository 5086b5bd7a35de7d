/** Export of an asset as Markdown or HTML (GET /asset/{asset}/export). */
import type { Asset, ExportedAsset } from '../piecesTypes.ts';
import { InvalidInputError } from '../errors.ts';
import { contentOf } from './content.ts';
import { fenced } from '../markdown.ts';

export type ExportType = 'HTML' | 'MD';

export function parseExportType(value: string | undefined): ExportType {
  const upper = value?.toUpperCase();
  if (upper === 'HTML' || upper === 'MD') return upper;
  throw new InvalidInputError(`export_type must be HTML or MD, not ${JSON.stringify(value ?? null)}`);
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A name as Markdown text: on one line, with every character that could open markup (a link, an
 * image, emphasis, code, raw HTML, an autolink) escaped, so `[x](javascript:…)` or `<script>` in
 * a name stays visible text.
 */
export function escapeMarkdownText(s: string): string {
  return s
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#!|~&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`));
}

export function exportAsset(asset: Asset, type: ExportType): ExportedAsset {
  const format = asset.formats.iterable.find((f) => f.id === asset.original.id) ?? asset.formats.iterable[0];
  const content = format ? contentOf(format) : undefined;
  const language = format?.classification.specific ?? 'txt';
  const name = asset.name ?? 'Untitled snippet';
  const image = format?.classification.generic === 'IMAGE' && content?.bytes;
  const dataUrl = image ? `data:image/${language === 'jpg' ? 'jpeg' : language};base64,${Buffer.from(content.bytes ?? []).toString('base64')}` : '';
  let raw: string;
  if (type === 'MD') {
    const title = escapeMarkdownText(name);
    if (image) raw = `# ${title}\n\n![${title}](${dataUrl})\n`;
    else {
      raw = `# ${title}\n\n${fenced(content?.text ?? '', language)}\n`;
    }
  } else {
    const body = image
      ? `<img alt="${escapeHtml(name)}" src="${dataUrl}">`
      : `<pre><code class="language-${escapeHtml(language)}">${escapeHtml(content?.text ?? '')}</code></pre>`;
    raw = `<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>${escapeHtml(name)}</title></head>\n<body>\n<h1>${escapeHtml(name)}</h1>\n${body}\n</body>\n</html>\n`;
  }
  return {
    name,
    description: `${name} (${language}), exported from Satchel as ${type}`,
    created: asset.created,
    raw: { string: { raw } },
  };
}
