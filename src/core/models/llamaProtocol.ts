/** Requests from the host to the llama.cpp child process (llamaHost.ts), one JSON object each; replies are src/core/rpc/replies.ts's. */
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
