/** Export of an asset as Markdown or HTML (GET /asset/{asset}/export). */
import type { Asset, ExportedAsset } from '../wire.ts';
import { InvalidInputError } from '../errors.ts';
import { contentOf } from './content.ts';

export type ExportType = 'HTML' | 'MD';

export function parseExportType(value: string | undefined): ExportType {
  const upper = value?.toUpperCase();
  if (upper === 'HTML' || upper === 'MD') return upper;
  throw new InvalidInputError(`export_type must be HTML or MD, not ${JSON.stringify(value ?? null)}`);
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function exportAsset(asset: Asset, type: ExportType): ExportedAsset {
  const format = asset.formats.iterable.find((f) => f.id === asset.original.id) ?? asset.formats.iterable[0];
  const content = format ? contentOf(format) : undefined;
  const language = format?.classification.specific ?? 'txt';
  const name = asset.name ?? 'Untitled snippet';
  const image = format?.classification.generic === 'IMAGE' && content?.bytes;
  const dataUrl = image ? `data:image/${language === 'jpg' ? 'jpeg' : language};base64,${Buffer.from(content.bytes ?? []).toString('base64')}` : '';
  let raw: string;
  if (type === 'MD') {
    if (image) raw = `# ${name}\n\n![${name}](${dataUrl})\n`;
    else {
      const text = content?.text ?? '';
      const fence = text.includes('```') ? '~~~~' : '```';
      raw = `# ${name}\n\n${fence}${language}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}\n`;
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
