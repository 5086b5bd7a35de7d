/**
 * package.json ↔ the agents' code: the tool, participant and MCP provider ids the code registers
 * are the ones contributed, and every tool's schema is one a model can fill in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { LIMITS } from '../../../src/core/limits.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const source = (file: string) => readFileSync(join(root, 'src/extension/agents', file), 'utf8');

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  modelDescription: string;
  inputSchema: { type: string; properties: Record<string, { type: string }>; required?: string[] };
}

test('the tools registered in code are exactly the contributed ones', () => {
  const names = [...source('toolNames.ts').matchAll(/^\s+(\w+): '(satchel_\w+)',$/gm)];
  const registered = names.map((m) => m[2]).sort();
  const contributed = (manifest.contributes.languageModelTools as ToolContribution[]).map((t) => t.name).sort();
  assert.equal(registered.length, 7);
  // Each name is implemented: the read tools by toolImplementations.ts, the writes by writeTools.ts
  // (languageModelTools.ts registers every name of TOOL_NAMES).
  for (const [, key] of names) assert.match(source('toolImplementations.ts') + source('writeTools.ts'), new RegExp(`(TOOL_NAMES|names)\\.${key}\\b`), key!);
  assert.match(source('languageModelTools.ts'), /for \(const name of Object\.values\(TOOL_NAMES\)\)/);
  assert.deepEqual(registered, contributed);
});

test('every tool has a model description, an object schema whose required fields exist, and a unique # name', () => {
  const tools = manifest.contributes.languageModelTools as ToolContribution[];
  for (const tool of tools) {
    assert.ok(tool.modelDescription.length > 80, `${tool.name} explains itself to the model`);
    assert.equal(tool.inputSchema.type, 'object');
    for (const field of tool.inputSchema.required ?? []) assert.ok(tool.inputSchema.properties[field], `${tool.name}.${field}`);
  }
  const references = tools.map((t) => t.toolReferenceName);
  assert.equal(new Set(references).size, tools.length);
});

test('the participant and the MCP provider ids match the code', () => {
  const participant = /PARTICIPANT_ID = '([\w.]+)'/.exec(source('chatParticipant.ts'))?.[1];
  assert.deepEqual(manifest.contributes.chatParticipants.map((p: { id: string }) => p.id), [participant]);
  const commands = manifest.contributes.chatParticipants[0].commands.map((c: { name: string }) => c.name);
  assert.deepEqual(commands, ['search', 'save', 'explain']);
  for (const command of commands) assert.match(source('chatAnswers.ts'), new RegExp(`request.command === '${command}'`));
  const provider = /MCP_PROVIDER_ID = '([\w.]+)'/.exec(source('mcpDefinitions.ts'))?.[1];
  assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders.map((p: { id: string }) => p.id), [provider]);
});

test("the save tool's schema states the store's limits (core/limits.ts)", () => {
  const save = (manifest.contributes.languageModelTools as ToolContribution[]).find((tool) => tool.name === 'satchel_save_snippet')!;
  const properties = save.inputSchema.properties as Record<string, { maxLength?: number; maxItems?: number; items?: { maxLength?: number } }>;
  assert.equal(properties['content']?.maxLength, LIMITS.contentChars);
  assert.equal(properties['name']?.maxLength, LIMITS.nameChars);
  assert.equal(properties['tags']?.maxItems, LIMITS.tagsPerAsset);
  assert.equal(properties['tags']?.items?.maxLength, LIMITS.tagChars);
});

test("the update tool's schema states the store's limits, and both edit tools require the revision read", () => {
  const tools = manifest.contributes.languageModelTools as ToolContribution[];
  const update = tools.find((tool) => tool.name === 'satchel_update_snippet')!;
  const remove = tools.find((tool) => tool.name === 'satchel_delete_snippet')!;
  assert.deepEqual(update.inputSchema.required, ['id', 'expectedRevision']);
  assert.deepEqual(remove.inputSchema.required, ['id', 'expectedRevision']);
  const properties = update.inputSchema.properties as Record<string, { maxLength?: number; maxItems?: number; items?: { maxLength?: number } }>;
  assert.equal(properties['content']?.maxLength, LIMITS.contentChars);
  assert.equal(properties['name']?.maxLength, LIMITS.nameChars);
  assert.equal(properties['description']?.maxLength, LIMITS.annotationChars);
  assert.equal(properties['tags']?.maxItems, LIMITS.tagsPerAsset);
  assert.equal(properties['tags']?.items?.maxLength, LIMITS.tagChars);
  const get = tools.find((tool) => tool.name === 'satchel_get_snippet')!;
  assert.match(get.modelDescription, /revision/, 'the read tool says it gives the revision the writes need');
});
