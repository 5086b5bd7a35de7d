/**
 * New code for the save side of the suggestion-quality test: small functions (two to five lines,
 * in the languages people copy) that are worth a save suggestion, and one-liners and trivia (an
 * import, closing braces, a constant, a log call, data, a comment) that are not.
 */

export interface SaveCase {
  readonly name: string;
  readonly code: string;
}

/** New small functions: each must get a save suggestion. */
export const worthSaving: readonly SaveCase[] = [
  { name: 'rust area', code: 'pub fn area_unrelated(width: u32, height: u32) -> u64 {\n    u64::from(width) * u64::from(height) * 4\n}' },
  { name: 'rust is_leap', code: 'fn is_leap(year: i32) -> bool {\n    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0\n}' },
  { name: 'ts isBlank', code: 'export function isBlank(value: string | undefined): boolean {\n  return value === undefined || value.trim().length === 0;\n}' },
  { name: 'ts clamp arrow', code: 'export const clamp = (value: number, low: number, high: number): number =>\n  Math.min(high, Math.max(low, value));' },
  { name: 'js sleep', code: 'function sleep(ms) {\n  return new Promise((resolve) => setTimeout(resolve, ms));\n}' },
  { name: 'python clamp', code: 'def clamp(value, low, high):\n    return max(low, min(value, high))' },
  { name: 'python chunks', code: 'def chunks(items, size):\n    for start in range(0, len(items), size):\n        yield items[start:start + size]' },
  { name: 'go abs', code: 'func abs(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}' },
  { name: 'go contains', code: 'func contains(list []string, want string) bool {\n\tfor _, item := range list {\n\t\tif item == want { return true }\n\t}\n\treturn false\n}' },
  { name: 'java isEven', code: 'public static boolean isEven(int n) {\n    return n % 2 == 0;\n}' },
  { name: 'csharp reverse', code: 'public static string Reverse(string s) {\n    var chars = s.ToCharArray();\n    Array.Reverse(chars);\n    return new string(chars);\n}' },
  { name: 'kotlin square', code: 'fun square(n: Int): Int {\n    return n * n\n}' },
  { name: 'shell mkcd', code: 'mkcd() {\n  mkdir -p "$1" && cd "$1"\n}' },
  { name: 'ruby full_name', code: 'def full_name(first, last)\n  "#{first} #{last}".strip\nend' },
  { name: 'c swap', code: 'void swap(int *a, int *b) {\n    int t = *a;\n    *a = *b;\n    *b = t;\n}' },
  { name: 'shell setup recipe', code: 'sudo apt-get update\nsudo apt-get install -y build-essential\ncurl -fsSL https://deb.nodesource.com/setup_22.x | sudo -E bash -' },
  { name: 'sql upsert', code: 'INSERT INTO settings (key, value) VALUES (?, ?)\nON CONFLICT (key) DO UPDATE SET value = excluded.value;' },
];

/** One-liners and trivia: none may get a save suggestion. */
export const notWorthSaving: readonly SaveCase[] = [
  { name: 'ts import', code: "import { readFile } from 'node:fs/promises';" },
  { name: 'python imports', code: 'import os\nimport sys\nfrom pathlib import Path' },
  { name: 'rust uses', code: 'use std::collections::HashMap;\nuse std::io::{self, Read};' },
  { name: 'closing braces', code: '      }\n    });\n  }\n}' },
  { name: 'assignment', code: 'x = 1' },
  { name: 'constants', code: 'const MAX_RETRIES = 5;\nconst TIMEOUT_MS = 30000;\nconst BASE_URL = "http://localhost";' },
  { name: 'log call', code: "console.log('user logged in', user.id, new Date().toISOString());" },
  { name: 'print calls', code: 'print("starting")\nprint(f"processed {count} items")' },
  { name: 'go println', code: 'fmt.Println("listening on", addr)' },
  { name: 'one statement', code: 'const total = items.reduce((sum, item) => sum + item.price, 0);' },
  { name: 'one call', code: 'await fs.promises.writeFile(outputPath, JSON.stringify(report, null, 2));' },
  { name: 'shell one-liner', code: 'docker compose up -d --build' },
  { name: 'two statements', code: 'const user = getUser(id);\nconst name = user.name;' },
  { name: 'go import block', code: 'import (\n\t"fmt"\n\t"os"\n\t"strings"\n)' },
  { name: 'json fragment', code: '{\n  "name": "satchel",\n  "version": "0.1.0",\n  "private": true\n}' },
  { name: 'comment block', code: '/**\n * Returns the area of the rectangle in square units.\n * Width and height are in pixels.\n */' },
  { name: 'two commands', code: 'git add -A\ngit commit -m "wip"' },
];
