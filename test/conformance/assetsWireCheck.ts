/**
 * A strict wire validator generated at run time from the published client's own models (the method
 * of pieces-wire.md §10): each model's `XFromJSONTyped` source gives every field's wire key, whether
 * it is optional, and its kind (nested model, array, map, date, enum); the model's `.d.ts` gives
 * primitive types. `check(model, json)` lists every missing required key, wrong type, unknown enum
 * value, unparseable date and unknown key, recursively. The client's FromJSON is lenient; this is not.
 */
import * as P from '@pieces.app/pieces-os-client';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type Kind = 'plain' | 'model' | 'array' | 'map' | 'date';

interface Field {
  readonly ts: string;
  readonly wire: string;
  readonly optional: boolean;
  readonly kind: Kind;
  /** Model or enum name for model/array/map kinds; declared TS type for plain ones. */
  readonly type: string;
}

const sdk = P as unknown as Record<string, unknown>;
const modelsDir = join(dirname(createRequire(import.meta.url).resolve('@pieces.app/pieces-os-client')), 'models');
const cache = new Map<string, Field[]>();

function declaredTypes(model: string): Map<string, string> {
  const out = new Map<string, string>();
  let source = '';
  try {
    source = readFileSync(join(modelsDir, `${model}.d.ts`), 'utf8');
  } catch {
    return out;
  }
  const body = new RegExp(`export interface ${model} \\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1] ?? '';
  for (const match of body.matchAll(/^\s{4}(\w+)\??: (.+);$/gm)) out.set(match[1]!, match[2]!);
  return out;
}

function fieldsOf(model: string): Field[] {
  const cached = cache.get(model);
  if (cached) return cached;
  const fn = sdk[`${model}FromJSONTyped`];
  if (typeof fn !== 'function') throw new Error(`No model ${model} in the client`);
  const types = declaredTypes(model);
  const fields: Field[] = [];
  for (const line of fn.toString().split('\n')) {
    const m = /^\s*'(\w+)': (.*?),?$/.exec(line);
    if (!m) continue;
    const ts = m[1]!;
    const expr = m[2]!;
    const wire = /json\['([^']+)'\]/.exec(expr)?.[1];
    if (!wire) continue;
    const optional = expr.includes('== null ? undefined');
    let kind: Kind = 'plain';
    let type = types.get(ts) ?? 'unknown';
    const array = /\.map\((?:\w+_1\.)?(\w+)FromJSON\)/.exec(expr);
    const map = /mapValues\)?\(json\['[^']+'\], (?:\w+_1\.)?(\w+)FromJSON\)/.exec(expr);
    const nested = /\(0, (?:\w+_1\.)?(\w+)FromJSON\)\(json/.exec(expr);
    if (array) [kind, type] = ['array', array[1]!];
    else if (map) [kind, type] = ['map', map[1]!];
    else if (expr.includes('new Date(')) kind = 'date';
    else if (nested) [kind, type] = ['model', nested[1]!];
    fields.push({ ts, wire, optional, kind, type });
  }
  cache.set(model, fields);
  return fields;
}

function enumValues(name: string): string[] | undefined {
  const value = sdk[name];
  return value && typeof value === 'object' ? Object.values(value as Record<string, string>) : undefined;
}

function checkValue(type: string, value: unknown, path: string, errors: string[]): void {
  const values = enumValues(type);
  if (values) {
    if (!values.includes(value as string)) errors.push(`${path}: ${JSON.stringify(value)} is not a ${type}`);
    return;
  }
  if (typeof sdk[`${type}FromJSONTyped`] === 'function') {
    check(type, value, path, errors);
    return;
  }
  const primitive = type.replace(/ \| null$/, '');
  if (primitive === 'string' || primitive === 'number' || primitive === 'boolean') {
    if (typeof value !== primitive) errors.push(`${path}: expected ${primitive}, got ${JSON.stringify(value)}`);
  } else if (/^Array<(string|number|boolean)>$/.test(primitive)) {
    const item = /^Array<(\w+)>$/.exec(primitive)![1];
    if (!Array.isArray(value) || value.some((v) => typeof v !== item)) errors.push(`${path}: expected ${primitive}`);
  } else if (/Enum$/.test(primitive) && !enumValues(primitive)) {
    // Inline enums declared inside another model's module: only the type (a string) can be checked.
    if (typeof value !== 'string') errors.push(`${path}: expected an enum string`);
  }
}

/** Appends every violation of `model` in `json` to `errors` (and returns it). */
export function check(model: string, json: unknown, path = model, errors: string[] = []): string[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    errors.push(`${path}: expected a ${model} object, got ${JSON.stringify(json)?.slice(0, 60)}`);
    return errors;
  }
  const record = json as Record<string, unknown>;
  const fields = fieldsOf(model);
  const known = new Set(fields.map((f) => f.wire));
  for (const key of Object.keys(record)) if (!known.has(key)) errors.push(`${path}.${key}: not a key of ${model}`);
  for (const field of fields) {
    const value = record[field.wire];
    const at = `${path}.${field.wire}`;
    if (value === undefined || value === null) {
      if (!field.optional) errors.push(`${at}: required ${field.type} missing`);
      continue;
    }
    switch (field.kind) {
      case 'date':
        if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) errors.push(`${at}: not an ISO date`);
        break;
      case 'array':
        if (!Array.isArray(value)) errors.push(`${at}: expected an array`);
        else value.forEach((item, i) => checkValue(field.type, item, `${at}[${i}]`, errors));
        break;
      case 'map':
        if (typeof value !== 'object' || Array.isArray(value)) errors.push(`${at}: expected an object map`);
        else for (const [k, v] of Object.entries(value)) checkValue(field.type, v, `${at}.${k}`, errors);
        break;
      case 'model':
        checkValue(field.type, value, at, errors);
        break;
      default:
        checkValue(field.type, value, at, errors);
    }
  }
  return errors;
}

/** Throws with every violation listed when `json` is not a strictly valid `model`. */
export function assertWire(model: string, json: unknown): void {
  const errors = check(model, json);
  if (errors.length > 0) throw new Error(`Not a strict ${model}:\n  ${errors.slice(0, 12).join('\n  ')}`);
}
