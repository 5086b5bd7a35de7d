/**
 * Servers kept in a YAML file, edited through the `yaml` package's Document so comments, key order
 * and quoting stay as the user wrote them (js-yaml would load and dump the file, dropping every
 * comment). Two shapes: a map keyed by name (Goose's `extensions`) and a list of items that carry
 * their own `name` (Continue's `mcpServers`).
 */
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { ConfigFileError, isRecord, without, type ServerMap, type ServerMapReader } from './serverMap.ts';

/** Servers in a map at `key` of the top-level map. */
export function yamlMapServerMap(key: string): ServerMapReader {
  return (text, file) => new YamlServerMap(text, file, key, 'map');
}

/** Servers as a list at `key`, each item named by its `name`; `skeleton` starts a file that does not exist yet. */
export function yamlListServerMap(key: string, skeleton: Readonly<Record<string, unknown>> = {}): ServerMapReader {
  return (text, file) => new YamlServerMap(text, file, key, 'list', skeleton);
}

class YamlServerMap implements ServerMap {
  private readonly document: Document;
  private readonly eol: string;
  private readonly key: string;
  private readonly shape: 'map' | 'list';

  constructor(text: string, file: string, key: string, shape: 'map' | 'list', skeleton: Readonly<Record<string, unknown>> = {}) {
    this.key = key;
    this.shape = shape;
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.document = parseDocument(text.trim() === '' ? '' : text, { keepSourceTokens: false });
    const problem = this.document.errors[0];
    if (problem) {
      const at = problem.linePos?.[0];
      throw new ConfigFileError(file, `not valid YAML${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${problem.message.split('\n')[0]}`);
    }
    if (this.document.contents === null) {
      for (const [name, value] of Object.entries(skeleton)) this.document.set(name, value);
    } else if (!isMap(this.document.contents)) {
      throw new ConfigFileError(file, 'does not hold a YAML mapping at the top');
    }
    const container = this.document.get(key, true);
    if (container !== undefined && container !== null && !(shape === 'map' ? isMap(container) : isSeq(container))) {
      throw new ConfigFileError(file, `"${key}" is not a ${shape === 'map' ? 'mapping' : 'list'}`);
    }
  }

  entries(): ReadonlyMap<string, unknown> {
    const plain = this.container();
    if (this.shape === 'map') return new Map(isRecord(plain) ? Object.entries(plain) : []);
    const found = new Map<string, unknown>();
    if (Array.isArray(plain)) for (const item of plain) found.set(itemKey(item), item);
    return found;
  }

  rest(): unknown {
    return without(this.plain(), [this.key]);
  }

  set(key: string, value: unknown): void {
    if (this.shape === 'map') {
      this.document.setIn([this.key, key], this.document.createNode(value));
      return;
    }
    const index = this.indexOf(key);
    if (!Array.isArray(this.container())) this.document.set(this.key, this.document.createNode([value]));
    else if (index === undefined) this.document.addIn([this.key], this.document.createNode(value));
    else this.document.setIn([this.key, index], this.document.createNode(value));
  }

  delete(key: string): void {
    if (this.shape === 'map') {
      this.document.deleteIn([this.key, key]);
      return;
    }
    const index = this.indexOf(key);
    if (index !== undefined) this.document.deleteIn([this.key, index]);
  }

  text(): string {
    // Flow lists as people write them (`[x]`, not `[ x ]`), and no long line folded.
    const text = this.document.toString({ flowCollectionPadding: false, lineWidth: 0 });
    // The yaml package writes \n; a file written with \r\n (Windows) keeps its line ends.
    return this.eol === '\n' ? text : text.replace(/\r?\n/g, this.eol);
  }

  private indexOf(key: string): number | undefined {
    const plain = this.container();
    if (!Array.isArray(plain)) return undefined;
    const index = plain.findIndex((item) => itemKey(item) === key);
    return index < 0 ? undefined : index;
  }

  private plain(): unknown {
    const value: unknown = this.document.toJS();
    return value ?? {};
  }

  private container(): unknown {
    const plain = this.plain();
    return isRecord(plain) ? plain[this.key] : undefined;
  }
}

/**
 * A list item's key: its `name`, lower-cased (Continue matches names so); an item without one
 * (a hub block's `uses:`) gets a key no name can take, so it is never matched and never lost.
 */
function itemKey(item: unknown): string {
  return isRecord(item) && typeof item.name === 'string' ? item.name.toLowerCase() : `\u0000unnamed ${JSON.stringify(item)}`;
}
