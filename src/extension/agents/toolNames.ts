/** The language-model tools' names, as package.json `languageModelTools` declares them (test/extension/agents/contributions.test.ts holds both to one list). */
export const TOOL_NAMES = {
  search: 'satchel_search_snippets',
  get: 'satchel_get_snippet',
  save: 'satchel_save_snippet',
  update: 'satchel_update_snippet',
  delete: 'satchel_delete_snippet',
  recent: 'satchel_list_recent_snippets',
  isSaved: 'satchel_check_snippet_saved',
} as const;
