/**
 * Memories: Markdown notes an agent (or the user) keeps about their work, with the project, files
 * and links they are about. Each is an asset marked as a memory (memoryFacts.ts), so search,
 * history, trash, sync and the agent changes review treat it as they treat a snippet. What sets it
 * apart is recall: the files it cites are checked against what they held when it was written, and
 * a memory whose files changed or went says it may be stale (fileStamps.ts).
 */
import type { StoreContext } from '../context.ts';
import type { Author } from '../history/authors.ts';
import type { AgentWrites, AgentSaveResult } from '../agents/agentWrites.ts';
import type { AssetService } from '../assets/assetService.ts';
import { FileStamps, type FileCheck, type Staleness } from './fileStamps.ts';
import { MemoryFactsStore, type MemoryFacts, type TimeWindow } from './memoryFacts.ts';
import { checkedMemory, isWebLink, type MemoryInput } from './memoryInputs.ts';

/** The language a memory is stored in. */
export const MEMORY_LANGUAGE = 'md';

/** A memory as it is recalled: its note (the opening of it), what it cites, and whether that moved on. */
export interface MemoryView {
  readonly id: string;
  readonly title: string;
  /** The note's opening, at most the characters asked for. */
  readonly text: string;
  /** Characters of the whole note. */
  readonly chars: number;
  readonly created: string;
  readonly updated: string;
  readonly tags: readonly string[];
  readonly project?: string | undefined;
  readonly links: readonly string[];
  readonly client?: string | undefined;
  /** Each cited file, as it is now against what it was when the memory was written. */
  readonly files: readonly FileCheck[];
  /** Some cited file changed or went since: the memory may be stale. */
  readonly stale: boolean;
  /** "may be stale: … changed, … is gone since it was written". */
  readonly staleNote?: string | undefined;
}

export interface MemoriesOptions {
  /** The git executable cited files are looked up with. */
  readonly git?: string;
}

export class Memories {
  readonly facts: MemoryFactsStore;
  private readonly writes: AgentWrites;
  private readonly assets: AssetService;
  private readonly stamps: FileStamps;

  constructor(context: StoreContext, writes: AgentWrites, assets: AssetService, options: MemoriesOptions = {}) {
    this.facts = new MemoryFactsStore(context.database);
    this.writes = writes;
    this.assets = assets;
    this.stamps = new FileStamps(options.git !== undefined ? { git: options.git } : {});
  }

  /**
   * Saves a memory as `author`'s write: its cited files stamped first (what they hold now), then
   * the asset and its facts in one transaction, or a proposal while agent writes wait for review.
   */
  async save(input: MemoryInput, author: Author): Promise<AgentSaveResult> {
    const memory = checkedMemory(input);
    const files = await this.stamps.stamp(memory.files ?? [], memory.project);
    const links = memory.links ?? [];
    const facts: MemoryFacts = { ...(memory.project !== undefined ? { project: memory.project } : {}), files, links, ...(memory.client !== undefined ? { client: memory.client } : {}) };
    const websites = links.filter(isWebLink);
    return this.writes.save(
      {
        content: memory.summary,
        name: memory.title,
        language: MEMORY_LANGUAGE,
        ...(memory.tags !== undefined ? { tags: memory.tags } : {}),
        ...(websites.length > 0 ? { websites } : {}),
        memory: facts,
      },
      author,
    );
  }

  /** Whether the asset is a memory. */
  isMemory(id: string): boolean {
    return this.facts.get(id) !== undefined;
  }

  /** Live memories, newest first. */
  newest(limit: number, window?: TimeWindow): string[] {
    return this.facts.newest(limit, window);
  }

  /** Whether the files a memory cites still hold what they held when it was written. */
  check(facts: MemoryFacts): Promise<Staleness> {
    return this.stamps.check(facts.files);
  }

  /** The facts and staleness of those of `ids` that are memories. */
  async recall(ids: readonly string[]): Promise<Map<string, { facts: MemoryFacts; staleness: Staleness }>> {
    const facts = this.facts.getMany(ids);
    const out = new Map<string, { facts: MemoryFacts; staleness: Staleness }>();
    await Promise.all([...facts].map(async ([id, memory]) => out.set(id, { facts: memory, staleness: await this.check(memory) })));
    return out;
  }

  /**
   * The views of those of `ids` that are live memories, in the order given, each with its cited
   * files checked now: what every recall shows (the MCP tools, the Memories node).
   */
  async views(ids: readonly string[], chars: number): Promise<MemoryView[]> {
    const recalled = await this.recall(ids.filter((id) => this.assets.exists(id)));
    const summaries = new Map(this.assets.summaries([...recalled.keys()]).map((summary) => [summary.id, summary]));
    const out: MemoryView[] = [];
    for (const id of ids) {
      const memory = recalled.get(id);
      const summary = summaries.get(id);
      if (!memory || !summary) continue;
      const opening = this.assets.opening(id, chars);
      const updated = this.assets.get(id, { transferables: false }).updated.value;
      const { facts, staleness } = memory;
      out.push({
        id,
        title: summary.name,
        text: opening.text,
        chars: opening.chars,
        created: summary.created,
        updated,
        tags: summary.tags,
        ...(facts.project !== undefined ? { project: facts.project } : {}),
        links: facts.links,
        ...(facts.client !== undefined ? { client: facts.client } : {}),
        files: staleness.files,
        stale: staleness.stale,
        ...(staleness.note !== undefined ? { staleNote: staleness.note } : {}),
      });
    }
    return out;
  }
}
