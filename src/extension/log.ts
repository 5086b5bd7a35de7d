/** The "Satchel" log output channel, adapted to the core's Logger so the server logs there too. */
import * as vscode from 'vscode';
import type { Logger } from '../core/context.ts';

export class Log implements Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('Satchel', { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string, error?: unknown): void {
    if (error instanceof Error) this.channel.error(`${message}: ${error.stack ?? error.message}`);
    else if (error !== undefined) this.channel.error(`${message}: ${String(error)}`);
    else this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
