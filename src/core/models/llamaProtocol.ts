/** Messages between the host and the llama.cpp child process (llamaHost.ts), one JSON object each. */
export type HostRequest =
  | {
      readonly id: number;
      readonly op: 'load';
      readonly modelPath: string;
      readonly role: 'text' | 'embedding';
      readonly contextSize: number;
      readonly threads: number;
    }
  | {
      readonly id: number;
      readonly op: 'generate';
      readonly prompt: string;
      readonly maxTokens: number;
      readonly jsonSchema?: Readonly<Record<string, unknown>>;
    }
  | { readonly id: number; readonly op: 'embed'; readonly text: string }
  | { readonly id: number; readonly op: 'abort'; readonly target: number };

/** `id` 0 with result `'ready'` announces a started child. */
export type HostReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };
