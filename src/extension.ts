/** Composition root in VS Code (built out by the extension issue). */
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
