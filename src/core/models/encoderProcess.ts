/**
 * The built-in sentence encoder loaded in its own child process (encoderHost, over
 * modelProcess.ts). Stopping it is the unload. If the child dies, pending calls fail and
 * `onDidExit` fires, so the service can mark the model unloaded.
 */
import type { EncoderFiles } from './encoderFiles.ts';
import type { EncoderRequest } from './encoderProtocol.ts';
import { ModelProcess } from './modelProcess.ts';

export interface EncoderLoadOptions {
  readonly files: EncoderFiles;
  /** Pieces of a text the model reads (its cost grows with them). */
  readonly maxTokens: number;
  /** How long starting the child and loading may take. */
  readonly timeoutMs: number;
}

export class EncoderProcess extends ModelProcess<EncoderRequest> {
  static async start(options: EncoderLoadOptions): Promise<EncoderProcess> {
    const encoder = new EncoderProcess('encoderHost', 'advanced');
    await encoder.load({ op: 'load', modelDir: options.files.modelDir, maxTokens: options.maxTokens }, { timeoutMs: options.timeoutMs, what: 'the built-in sentence encoder' });
    return encoder;
  }

  /**
   * One vector per text, in order, as the model makes it (the model reads a batch together: cheaper
   * per text than one by one). Search centres them (ENCODER_CENTRE, vectorIndex.ts).
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors = await this.call({ op: 'embed', texts });
    if (!Array.isArray(vectors) || vectors.length !== texts.length || !vectors.every((vector: unknown): vector is Float32Array => vector instanceof Float32Array)) {
      throw new Error(`The sentence encoder answered ${texts.length} texts with something other than ${texts.length} vectors.`);
    }
    return vectors;
  }
}
