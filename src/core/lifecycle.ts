/**
 * The one disposable type of every layer, and hierarchical disposal: each component owns its
 * children through `_register` and disposes them, last first, with itself.
 */
export interface Disposable {
  dispose(): void;
}

export function disposeAll(disposables: Iterable<Disposable>): void {
  for (const disposable of [...disposables].reverse()) {
    try {
      disposable.dispose();
    } catch {
      // One failing child must not keep the others alive.
    }
  }
}

/** A Disposable that runs `release` the first time it is disposed, and never again. */
export function toDisposable(release: () => void): Disposable {
  let released = false;
  return {
    dispose: () => {
      if (released) return;
      released = true;
      release();
    },
  };
}

/** Base of every object that owns others. */
export abstract class Owner implements Disposable {
  protected _isDisposed = false;
  private readonly _disposables: Disposable[] = [];

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    disposeAll(this._disposables);
    this._disposables.length = 0;
  }

  protected _register<T extends Disposable>(value: T): T {
    if (this._isDisposed) value.dispose();
    else this._disposables.push(value);
    return value;
  }
}

/** Holds at most one disposable; replacing it disposes the previous one. */
export class MutableDisposable<T extends Disposable> implements Disposable {
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
