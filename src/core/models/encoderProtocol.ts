/** Requests from the host to the sentence encoder's child process (encoderHost.ts); replies are src/core/rpc/replies.ts's. */
export type EncoderRequest =
  | {
      readonly id: number;
      readonly op: 'load';
      /** Holds model.json, its weight shards and vocab.json. */
      readonly modelDir: string;
      /** Pieces of a text the model reads; the rest is not embedded. */
      readonly maxTokens: number;
    }
  /** Answered with one vector (Float32Array, over the structured-clone channel) per text, in order. */
  | { readonly id: number; readonly op: 'embed'; readonly texts: readonly string[] };
