/** Hierarchical disposal: each component owns its children through `_register`. */
export interface IDisposable {
  dispose(): unknown;
}

export function disposeAll(disposables: Iterable<IDisposable>): void {
  for (const disposable of [...disposables].reverse()) {
    try {
      disposable.dispose();
    } catch {
      // One failing child must not keep the others alive.
    }
  }
}

export abstract class Disposable implements IDisposable {
  protected _isDisposed = false;
  private readonly _disposables: IDisposable[] = [];

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    disposeAll(this._disposables);
    this._disposables.length = 0;
  }

  protected _register<T extends IDisposable>(value: T): T {
    if (this._isDisposed) value.dispose();
    else this._disposables.push(value);
    return value;
  }
}

/** Holds at most one disposable; replacing it disposes the previous one. */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.current === next) return;
    this.current?.dispose();
    this.current = next;
  }

  dispose(): void {
    this.value = undefined;
  }
}
