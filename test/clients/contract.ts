/**
 * The contract clientContract.test.ts replays: each call and stream the two published Pieces
 * clients make, and every field they read of each reply with the type they need (see that test's
 * comment for how it was derived), with the check that a reply has them.
 */
import assert from 'node:assert/strict';

export type Json = Record<string, any>;

/**
 * The type a client needs at a path: a JSON type, 'datetime' (a string Python's datetime parses),
 * or the list of values an enum accepts.
 */
type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'datetime' | readonly string[];

/**
 * Fields read from one reply or frame. Paths are dotted; `[]` steps into every element of an array
 * and `{}` into every value of an object used as a map; either must have at least one entry (the
 * replay makes sure there is something to read).
 */
export type Reads = Readonly<Record<string, Kind>>;

// Building blocks the generated models require wherever these objects appear.
export const timestamp = (at: string): Reads => ({ [`${at}.value`]: 'datetime' });
const application = (at: string): Reads => ({
  [`${at}.id`]: 'string',
  [`${at}.name`]: 'string',
  [`${at}.version`]: 'string',
  [`${at}.platform`]: 'string',
  [`${at}.onboarded`]: 'boolean',
  [`${at}.privacy`]: 'string',
});
const classification = (at: string): Reads => ({ [`${at}.generic`]: 'string', [`${at}.specific`]: 'string' });
/** A Format (or the flattened one inside an asset's `original.reference`). */
const format = (at: string): Reads => ({
  [`${at}.id`]: 'string',
  [`${at}.creator`]: 'string',
  [`${at}.role`]: ['ORIGINAL', 'ADDITIONAL', 'BOTH', 'UNKNOWN'],
  [`${at}.bytes.value`]: 'number',
  [`${at}.bytes.readable`]: 'string',
  ...classification(`${at}.classification`),
  ...application(`${at}.application`),
  ...timestamp(`${at}.created`),
  ...timestamp(`${at}.updated`),
});
/** What the SDK's Asset model needs to parse a reply (with transferables=false, no content). */
const assetParsed: Reads = {
  id: 'string',
  name: 'string',
  creator: 'string',
  mechanism: 'string',
  ...timestamp('created'),
  ...timestamp('updated'),
  'formats.iterable': 'array',
  'original.id': 'string', // BasicAsset.raw_content setter: the format it edits
  'preview.base.id': 'string',
};
/** An Asset as both clients read a snippet: name, text and language from original.reference. */
const asset: Reads = {
  ...assetParsed,
  'created.readable': 'string', // BasicAsset.created_at
  'original.reference.asset': 'string',
  'original.reference.fragment.string.raw': 'string', // BasicAsset.raw_content
  ...format('original.reference'),
  'original.reference.classification.specific': 'string', // BasicAsset.classification
  'preview.base.reference.fragment.string.raw': 'string', // BasicAsset.raw_content's fallback
};
const searched: Reads = {
  'iterable[].identifier': 'string',
  'iterable[].exact': 'boolean', // BasicAsset.search: exact matches first, then suggested
  'iterable[].score': 'number',
  'iterable[].match': 'string',
  exact: 'number',
  suggested: 'number',
};
const user: Reads = { id: 'string', name: 'string', 'aesthetics.theme.dark': 'boolean', 'aesthetics.font.size': 'number' };
const streamedIds = (key: string): Reads => ({ iterable: 'array', [`iterable[].${key}.id`]: 'string' });
export const qgptFrame: Reads = {
  status: ['IN-PROGRESS', 'COMPLETED', 'FAILED', 'STOPPED', 'CANCELED', 'RESET', 'UNKNOWN'],
  conversation: 'string', // Copilot._return_on_message / AskStream.on_message: the chat to keep
};
export const qgptAnswer: Reads = { ...qgptFrame, 'question.answers.iterable[].text': 'string', 'question.answers.iterable[].score': 'number' };

/** The contract: each call, who makes it, what it sends and what is read of the reply. */
export const CONTRACT = {
  // Both: PiecesClient._port_scanning, a HEAD on each port of 39300-39333; 200 means "here".
  discover: { method: 'HEAD', path: '/.well-known/health' },
  // SDK: PiecesClient.is_pieces_running (and WellKnownApi.get_well_known_health, a string).
  health: { method: 'GET', path: '/.well-known/health', text: true },
  // Both: PiecesClient.version; the CLI's Settings.version_check accepts 12.0.0 <= v < 13.0.0.
  version: { method: 'GET', path: '/.well-known/version', text: true },
  // SDK: PiecesClient._startup, ConnectorApi.connect → the tracked application's id (a header on
  // every later call); the CLI connects the same way before `ask`.
  connect: { method: 'POST', path: '/connect', reads: { ...application('application'), os: 'string', 'health.os.id': 'string', 'health.os.version': 'string' } },
  // Both: UserApi.user_snapshot, "logged in" when `user` is there (PiecesClient._startup, Settings.check_login).
  user: { method: 'GET', path: '/user', reads: Object.fromEntries(Object.entries(user).map(([path, kind]) => [`user.${path}`, kind])) },
  // Both: ModelsApi.models_snapshot: the SDK's PiecesClient.get_models keeps {name: id} of the
  // cloud or downloaded ones; the CLI's get_default_model_info picks by `unique`.
  models: {
    method: 'GET',
    path: '/models',
    reads: {
      'iterable[].id': 'string',
      'iterable[].name': 'string',
      'iterable[].cloud': 'boolean',
      'iterable[].downloaded': 'boolean',
      'iterable[].version': 'string',
      'iterable[].type': 'string',
      'iterable[].usage': 'string',
      ...timestamp('iterable[].created'),
    },
  },
  // CLI: Settings.get_os_id, looking for the OS_SERVER application.
  applications: { method: 'GET', path: '/applications', reads: application('iterable[]') },
  // SDK: BasicAsset.create (transferables=false) → `.id`.
  create: { method: 'POST', path: '/assets/create?transferables=false', reads: { id: 'string' } },
  // CLI: BasicAsset.get_identifiers (`list`, and after a search).
  assetIds: { method: 'GET', path: '/assets/identifiers', reads: { 'iterable[].id': 'string' } },
  // Both: AssetSnapshot._api_call (AssetApi.asset_snapshot) for each id the assets stream names.
  asset: { method: 'GET', path: '/asset/{asset}', reads: asset },
  // Both: BasicAsset.name setter → BasicAsset._edit_asset, the whole snapshot sent back; the reply
  // is parsed (not read) and has no content (transferables=false).
  rename: { method: 'POST', path: '/asset/update?transferables=false', reads: assetParsed },
  // SDK: BasicAsset.raw_content setter: the original format (transferable), its raw replaced…
  format: { method: 'GET', path: '/format/{format}?transferable=true', reads: { 'fragment.string.raw': 'string', ...format(''), 'asset.id': 'string' } },
  // …and sent back with FormatApi.format_update_value.
  editFormat: { method: 'POST', path: '/format/update/value?transferable=false', reads: { id: 'string' } },
  // Both: BasicAsset.delete; the reply is a string (the id).
  delete: { method: 'POST', path: '/assets/{asset}/delete', text: true },
  // Both: BasicAsset.search, modes fts / ncs (the CLI's search --mode fts|ncs) and fuzzy (SDK).
  fts: { method: 'GET', path: '/search/full_text?query={query}', reads: searched },
  ncs: { method: 'GET', path: '/search/neural_code?query={query}', reads: searched },
  fuzzy: { method: 'GET', path: '/assets/search?query={query}&transferables=false', reads: searched },
  // Both: ConversationsSnapshot._api_call (a chat's name, messages; the CLI's `chats` its updated time).
  conversation: {
    method: 'GET',
    path: '/conversation/{conversation}',
    reads: {
      id: 'string',
      name: 'string', // BasicChat.name
      type: 'string',
      'messages.iterable[].id': 'string',
      'messages.indices{}': 'number', // BasicChat.messages: index -1 is a deleted message
      ...timestamp('created'),
      ...timestamp('updated'),
      'updated.readable': 'string', // BasicChat.updated_at (CLI `chats`)
    },
  },
  // CLI: BasicChat.identifiers_snapshot (`chats`).
  conversationIds: { method: 'GET', path: '/conversations/identifiers', reads: { 'iterable[].id': 'string' } },
  // SDK: BasicMessage (role and text of each message of a chat).
  message: {
    method: 'GET',
    path: '/message/{message}?transferables=true',
    reads: {
      id: 'string',
      role: ['USER', 'SYSTEM', 'ASSISTANT'],
      'fragment.string.raw': 'string',
      'conversation.id': 'string',
      ...timestamp('created'),
      ...timestamp('updated'),
    },
  },
  // SDK: LTMVisionWS.on_message fetches this on every frame of its stream; LongTermMemory reads
  // `vision.activation` (absent: not active).
  visionStatus: { method: 'GET', path: '/workstream_pattern_engine/processors/vision/status', reads: {} },

  // The five clients of issue 33, each request as the client sends it (its comment names the client).
  // Sublime 1.10.9 and Neovim 1.5.1: ModelsApi.models_snapshot at start-up, their default picked by
  // `unique` (Sublime: o4-mini-2025-04-16, then gpt-4o) or `name` (Neovim: "GPT-4o Chat Model")
  // among the cloud or downloaded ones; Neovim's picker lists every such model as a chat model
  // (the SDK's get_models reads nothing else).
  editorModels: {
    method: 'GET',
    path: '/models',
    reads: { 'iterable[].id': 'string', 'iterable[].name': 'string', 'iterable[].cloud': 'boolean', 'iterable[].downloaded': 'boolean', 'iterable[].usage': 'string', 'iterable[].foundation': 'string' },
  },
  // The example app (React): ConnectorApi.connect, its header shows `user.name` ("Please Login" without one).
  connectWithUser: { method: 'POST', path: '/connect', reads: { ...application('application'), 'user.id': 'string', 'user.name': 'string' } },
  // copilot-sdk (TS 1.1.9, Python 0.6.0) askQuestion and the example app's askQuestion: QGPTApi.question.
  question: { method: 'POST', path: '/qgpt/question', reads: { 'answers.iterable[].text': 'string', 'answers.iterable[].score': 'number' } },
  // The example app's WorkflowActivity: ActivitiesApi.activitiesSnapshot({}), listing `asset.name`
  // and `event.asset.identifier_description_pair` of those with an asset.
  activities: { method: 'GET', path: '/activities', reads: { 'iterable[].id': 'string', 'iterable[].asset.id': 'string', 'iterable[].event.asset': 'object' } },
  // The vanilla copilot example: QGPTApi.relevance before its /qgpt/stream question.
  relevance: { method: 'POST', path: '/qgpt/relevance', reads: { 'relevant.iterable': 'array' } },
} as const satisfies Record<string, { method: string; path: string; text?: boolean; reads?: Reads }>;

/** The streams the clients open, and what they read of each frame. */
export const STREAMS = {
  // SDK PiecesClient._startup opens all of these; the CLI's `run` loop the first two.
  assets: { path: '/assets/stream/identifiers', reads: streamedIds('asset') }, // AssetsIdentifiersWS → AssetSnapshot
  conversations: { path: '/conversations/stream/identifiers', reads: streamedIds('conversation') }, // ConversationWS
  user: { path: '/user/stream', reads: user }, // AuthWS: UserProfile.from_json (not JSON = signed out)
  health: { path: '/.well-known/stream/health', text: true }, // HealthWS: any frame
  anchors: { path: '/anchors/stream/identifiers', reads: { iterable: 'array' } }, // AnchorsIdentifiersWS
  ranges: { path: '/ranges/stream/identifiers', reads: { iterable: 'array' } }, // RangesIdentifiersWS
  vision: { path: '/workstream_pattern_engine/processors/vision/status/stream' }, // LTMVisionWS: any frame, then visionStatus
} as const satisfies Record<string, { path: string; text?: boolean; reads?: Reads }>;

/** The models the other clients default to: Sublime by unique (with its fallback), Neovim by name. */
export const SUBLIME_DEFAULT_UNIQUES = ['o4-mini-2025-04-16', 'gpt-4o'] as const;
export const NEOVIM_DEFAULT_MODEL = 'GPT-4o Chat Model';

/** The SDK's default chat model (PiecesClient._startup) and the CLI's (config/schemas/model.py). */
export const SDK_DEFAULT_MODEL = 'GPT-3.5-turbo Chat Model';
export const CLI_DEFAULT_MODEL_UNIQUE = 'gemini-2.0-flash-lite-001';

/**
 * Every value `path` names in `value` (several through `[]` / `{}`); a missing step is reported.
 * `empty` lets an array or map have no entries (a stream's first frame on an empty host).
 */
function valuesAt(value: unknown, path: string, empty = false): Array<{ at: string; value: unknown }> {
  let found: Array<{ at: string; value: unknown }> = [{ at: '', value }];
  for (const step of path.split('.').filter(Boolean)) {
    const key = step.replace(/(\[\]|\{\})$/, '');
    const into = step.endsWith('[]') ? 'array' : step.endsWith('{}') ? 'map' : undefined;
    found = found.flatMap(({ at, value: current }) => {
      const here = `${at}${at ? '.' : ''}${key}`;
      const next = key ? (current as Json | undefined)?.[key] : current;
      if (into === 'array') {
        assert.ok(Array.isArray(next) && (empty || next.length > 0), `${here} is a non-empty array (got ${JSON.stringify(next)})`);
        return next.map((item, i) => ({ at: `${here}[${i}]`, value: item }));
      }
      if (into === 'map') {
        assert.ok(next && typeof next === 'object' && (empty || Object.keys(next).length > 0), `${here} is a non-empty map`);
        return Object.entries(next as Json).map(([k, item]) => ({ at: `${here}.${k}`, value: item }));
      }
      return [{ at: here, value: next }];
    });
  }
  return found;
}

export function assertReads(body: unknown, reads: Reads, what: string, empty = false): void {
  for (const [path, kind] of Object.entries(reads)) {
    for (const { at, value } of valuesAt(body, path, empty)) {
      const where = `${what}: ${at || path}`;
      if (Array.isArray(kind)) assert.ok((kind as readonly string[]).includes(value as string), `${where} is one of ${kind.join('|')} (got ${JSON.stringify(value)})`);
      else if (kind === 'datetime') assert.ok(typeof value === 'string' && !Number.isNaN(Date.parse(value)), `${where} is a date-time (got ${JSON.stringify(value)})`);
      else if (kind === 'array') assert.ok(Array.isArray(value), `${where} is an array (got ${JSON.stringify(value)})`);
      else assert.equal(typeof value, kind, `${where} is a ${kind} (got ${JSON.stringify(value)})`);
    }
  }
}
