/**
 * Runs secretlint rules (the preset's rule creators, through the rule API of @secretlint/types) over
 * one text and collects what they report. Not @secretlint/core's `lintSource`: its message filters
 * compare every message with every other (filter-duplicated-process.js), so a 4 MiB text holding
 * 100k token-shaped strings took 78 s where this takes well under one; and its profiler keeps two
 * performance marks per rule and text in the process's global buffer for ever. The rules are the
 * same objects with the same options; only the harness is Satchel's, linear in what they report.
 */
import path from 'node:path';
import type {
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintRuleLocalizeMessages,
  SecretLintRuleMessageTranslateResult,
  SecretLintSourceCode,
} from '@secretlint/types';

/** What a rule reported: its message id, the range it gave and the values it named (`data`). */
export interface RuleReport {
  readonly ruleId: string;
  readonly messageId: string;
  readonly range: readonly [number, number];
  readonly data: unknown;
}

export interface ConfiguredRule {
  readonly rule: SecretLintRuleCreator<object>;
  readonly options: object;
}

/** Every report of `rules` on `content`, linted as a text file named `filePath`, in the rules' order. */
export async function runRules(rules: readonly ConfiguredRule[], content: string, filePath: string): Promise<RuleReport[]> {
  const source = sourceOf(content, filePath);
  const reports: RuleReport[] = [];
  for (const { rule, options } of rules) {
    if (!rule.meta.supportedContentTypes.some((type) => type === 'text' || type === 'all')) continue;
    const ruleId = rule.meta.id;
    const context: SecretLintRuleContext = {
      sharedOptions: {},
      createTranslator: translator,
      report: (descriptor) => reports.push({ ruleId, messageId: descriptor.message.messageId, range: descriptor.range, data: descriptor.message.data }),
      // Only the comment filter ignores; it is not run (a comment must not hide a value from every door).
      ignore: () => {},
    };
    const handler = rule.create(context, options);
    await handler.file?.(source);
  }
  return reports;
}

/** The translator a rule makes its messages with: the id and the values, never a sentence holding them. */
function translator<T extends SecretLintRuleLocalizeMessages>(_messages: T) {
  return (messageId: keyof T, props?: object): SecretLintRuleMessageTranslateResult<object> => ({ message: String(messageId), messageId: String(messageId), data: props });
}

function sourceOf(content: string, filePath: string): SecretLintSourceCode {
  let lineStarts: number[] | undefined;
  const starts = (): number[] => {
    if (lineStarts) return lineStarts;
    lineStarts = [0];
    for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    return lineStarts;
  };
  const indexToPosition = (index: number): { line: number; column: number } => {
    const lines = starts();
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: index - lines[lo]! };
  };
  const positionToIndex = (pos: { line: number; column: number }): number => (starts()[pos.line - 1] ?? content.length) + pos.column;
  return {
    hasBOM: false,
    content,
    filePath,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: path.extname(filePath),
    getFilePath: () => filePath,
    getPhysicalFilePath: () => undefined,
    indexToPosition,
    positionToIndex,
    rangeToLocation: (range) => ({ start: indexToPosition(range[0]), end: indexToPosition(range[1]) }),
    locationToRange: (loc) => [positionToIndex(loc.start), positionToIndex(loc.end)],
  };
}
