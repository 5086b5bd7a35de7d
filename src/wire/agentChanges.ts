/**
 * Satchel's agent operations (not part of the Pieces interface): what agents changed, listed until
 * the user accepts or reverts each change, and the doors agents write through (the language-model
 * tools inside VS Code, any agent that is not an MCP client), which honour the review setting and
 * require the revision the agent last read. The MCP tools write through the same core operations.
 *
 * The review operations refuse an agent author (403): agents do not review agents' changes.
 */
import { z } from 'zod';
import type { AcceptAllResult, AgentChangeDetail, AgentChangeList, ReviewResult } from '../core/agents/agentChanges.ts';
import type { AgentWriteResult } from '../core/agents/agentWrites.ts';
import type { AgentEdit, AgentSave } from '../core/agents/agentInputs.ts';
import type { Asset } from '../core/piecesTypes.ts';
import { lazy, get, json, post, type Feeds } from './operation.ts';

const expectedRevision = lazy(() => z.string().min(1).max(64));

/** The store's limits are core's (413 past them); these bounds only keep a body's parts sane. */
const agentSave = lazy(() => z.object({
  content: z.string(),
  name: z.string().max(4096).optional(),
  tags: z.array(z.string().max(4096)).max(10_000).optional(),
  language: z.string().max(64).optional(),
  websites: z.array(z.string().max(8192)).max(10_000).optional(),
}));

const agentUpdate = lazy(() => z.object({
  content: z.string().optional(),
  name: z.string().max(4096).optional(),
  language: z.string().max(64).optional(),
  tags: z.array(z.string().max(4096)).max(10_000).optional(),
  /** '' removes the description. */
  description: z.string().optional(),
  /** The revision the agent last read (If-Match says the same). */
  expectedRevision: expectedRevision().optional(),
}));

const agentDelete = lazy(() => z.object({ expectedRevision: expectedRevision().optional() }).optional());

const reviewSetting = lazy(() => z.object({ reviewing: z.boolean() }));

/** Whether agent writes wait for the user's review (kept in the store: every host of it honours the last choice). */
export interface ReviewSetting {
  readonly reviewing: boolean;
}

/** What the agent doors parse is what core takes. */
export type CoreAgentBodies = [Feeds<z.output<ReturnType<typeof agentSave>>, AgentSave>, Feeds<Omit<z.output<ReturnType<typeof agentUpdate>>, 'expectedRevision'>, AgentEdit>];

/** One change's id in a stream frame; `removed` once it was accepted, reverted or rejected. */
export interface AgentChangeIdentifier {
  readonly id: string;
  readonly removed?: true;
}

/** The stream's frames: every listed change's id on connect, then each change of the list. */
export interface AgentChangeIdentifiers {
  readonly changes: readonly AgentChangeIdentifier[];
}

/** A secret found in what an agent wrote or reads: what and where, never the value (issue 32). */
export interface SecretFact {
  readonly label: string;
  readonly category: string;
  readonly field: string;
  readonly line: number;
}

/** An agent's save: the write's result, with the snippet saved when it was written, and the secrets it holds (kept and flagged). */
export interface AgentSaveReply extends AgentWriteResult {
  readonly saved?: Asset;
  readonly secrets?: readonly SecretFact[];
}

/** An agent's update or delete: the write's result, and the secrets what it wrote holds. */
export interface AgentWriteReply extends AgentWriteResult {
  readonly secrets?: readonly SecretFact[];
}

/**
 * Texts as an agent may read them (issue 32): each text of a snippet (or of anything else an agent is
 * shown) with every secret as its placeholder. With a query, each item says whether it was found only
 * by a secret (a door that searched for the agent leaves it out).
 */
const agentViewRequest = lazy(() => z.object({
  items: z
    .array(
      z.object({
        asset: z.string().min(1).max(200).optional(),
        code: z.string(),
        name: z.string().max(4096).optional(),
        description: z.string().optional(),
        websites: z.array(z.object({ url: z.string().max(8192), name: z.string().max(4096) })).max(100).optional(),
      }),
    )
    .max(100),
  query: z.string().max(1000).optional(),
}));

export interface AgentViewItem {
  readonly code: string;
  readonly name: string;
  readonly description?: string | undefined;
  /** The item's websites when it gave them: a value in a URL or a website's name as its placeholder. */
  readonly websites?: ReadonlyArray<{ readonly url: string; readonly name: string }> | undefined;
  readonly secrets: readonly SecretFact[];
  /** The query matched this item only through a secret. */
  readonly foundOnlyBySecret: boolean;
}

export interface AgentViewReply {
  readonly items: readonly AgentViewItem[];
}

export const agentChangeOperations = {
  /** Newest first (at most 500), whether agent writes wait for review, and how many there are in all. */
  list: get('/satchel/agent-changes', json<AgentChangeList>()),
  /** Every listed change's id on connect, then one frame per change of the list (a WebSocket; a GET answers the first frame). */
  streamIdentifiers: get('/satchel/agent-changes/stream/identifiers', json<AgentChangeIdentifiers>()),
  /** One change, with what a proposal would write. */
  get: get('/satchel/agent-changes/:change', json<AgentChangeDetail>()),
  /** Turns review of agent writes on or off (403 to an agent): the user's choice, kept in the store. */
  review: post('/satchel/agent-changes/review', json<ReviewSetting>(), 'review setting', reviewSetting),
  /** A mark cleared; a proposal applied as its agent's write (412 stale_revision when the snippet changed since). */
  accept: post('/satchel/agent-changes/:change/accept', json<ReviewResult>()),
  /** Every change accepted; proposals that cannot be applied stay, listed in `failed`. */
  acceptAll: post('/satchel/agent-changes/accept-all', json<AcceptAllResult>()),
  /** The revision before restored (412 when the snippet changed since the agent's write), a created snippet deleted, a deleted one restored; a proposal dropped. */
  revert: post('/satchel/agent-changes/:change/revert', json<ReviewResult>()),
  /** An agent saves a snippet (or proposes it, while agent writes wait for review). */
  save: post('/satchel/agents/snippets', json<AgentSaveReply>(), 'agent save', agentSave),
  /** An agent changes a snippet it read at `expectedRevision` (required: the body's or If-Match). */
  update: post('/satchel/agents/snippets/:asset/update', json<AgentWriteReply>(), 'agent update', agentUpdate),
  /** Texts as an agent may read them: secrets as placeholders (what the language-model tools and @satchel show). */
  view: post('/satchel/agents/view', json<AgentViewReply>(), 'agent view', agentViewRequest),
  /** An agent deletes a snippet it read at `expectedRevision` (required). */
  delete: post('/satchel/agents/snippets/:asset/delete', json<AgentWriteResult>(), 'agent delete', agentDelete),
} as const;

export type { AcceptAllResult, AgentChange, AgentChangeDetail, AgentChangeList, ReviewResult } from '../core/agents/agentChanges.ts';
export type { AgentWriteResult } from '../core/agents/agentWrites.ts';
export type { AgentEdit, AgentSave } from '../core/agents/agentInputs.ts';
