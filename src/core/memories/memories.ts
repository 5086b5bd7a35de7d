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
import { FileStamps, type Staleness } from './fileStamps.ts';
import { MemoryFactsStore, type MemoryFacts, type TimeWindow } from './memoryFacts.ts';
import { checkedMemory, isWebLink, type MemoryInput } from './memoryInputs.ts';

/** The language a memory is stored in. */
export const MEMORY_LANGUAGE = 'md';

export interface MemoriesOptions {
  /** The git executable cited files are looked up with. */
  readonly git?: string;
}

export class Memories {
  readonly facts: MemoryFactsStore;
  private readonly writes: AgentWrites;
  private readonly stamps: FileStamps;

  constructor(context: StoreContext, writes: AgentWrites, options: MemoriesOptions = {}) {
    this.facts = new MemoryFactsStore(context.database);
    this.writes = writes;
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
}
