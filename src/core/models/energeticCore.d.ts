/**
 * The part of @energetic-ai/core (TensorFlow.js core, graph-model converter and WebAssembly
 * backend in one bundle) that the sentence encoder uses. The package's own declarations re-export
 * @tensorflow/* type packages it does not install; an ambient declaration takes precedence over them.
 */
declare module '@energetic-ai/core' {
  export interface Tensor {
    data(): Promise<Float32Array>;
    dispose(): void;
  }

  export interface GraphModel {
    executeAsync(inputs: Readonly<Record<string, Tensor>>): Promise<Tensor>;
  }

  /** `file://<path>/model.json`: the model's topology; its weight shards are read beside it. */
  export function loadGraphModel(url: string): Promise<GraphModel>;
  export function tensor1d(values: ArrayLike<number>, dtype: 'int32' | 'float32'): Tensor;
  export function tensor2d(values: ArrayLike<number>, shape: [number, number], dtype: 'int32' | 'float32'): Tensor;
  export function setBackend(name: 'wasm' | 'cpu'): Promise<boolean>;
  export function ready(): Promise<void>;
}
