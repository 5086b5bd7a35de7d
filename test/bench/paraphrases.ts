/**
 * Paraphrased queries for the semantic recall quality row: each asks for one planted asset of the
 * bench corpus (named by the planted query that finds it) in other words, the way someone who
 * does not remember the snippet's name would. Written by hand; most share no word with their
 * target, so lexical search is expected to miss most of them.
 */
export interface Paraphrase {
  readonly query: string;
  /** The planted query (corpus.ts) whose target is the answer. */
  readonly planted: string;
}

export const paraphrases: readonly Paraphrase[] = [
  { query: 'wait until the user stops typing before running the callback', planted: 'debonce' },
  { query: 'get parsed data back from a rest endpoint', planted: 'fetchJsn' },
  { query: 'abort pending work when a react component goes away', planted: 'useEfect cleanup' },
  { query: 'keep computed results in a key value store with an expiry', planted: 'redis cache' },
  { query: 'find a number in an ordered list by halving the range', planted: 'binsearch' },
  { query: 'check that an auth token signature is valid', planted: 'jwt verify' },
  { query: 'container image for a javascript server', planted: 'dockerfile node' },
  { query: 'insert a row or change it when it already exists', planted: 'sql upsert postgres' },
  { query: 'collapse nested lists into one level', planted: 'flaten array' },
  { query: 'persist component state in the browser across reloads', planted: 'useLocalStorag' },
  { query: 'check whether a string looks like a mail address', planted: 'regex email' },
  { query: 'run several downloads in parallel and wait for all of them', planted: 'goroutine waitgroup' },
  { query: 'sum sales per region and month in a dataframe', planted: 'pandas groupby agg' },
  { query: 'try an operation again with growing delays after failures', planted: 'retry exponential backof' },
  { query: 'make a random unique identifier', planted: 'uuidv4' },
  { query: 'allow cross origin requests in a node web server', planted: 'cors middleware express' },
  { query: 'limit how often a handler runs while the page moves', planted: 'throttle scroll' },
  { query: 'cache the results of a recursive number sequence', planted: 'memoize fibonaci' },
  { query: 'command line tool with several verbs in python', planted: 'argparse subcommand' },
  { query: 'turn spreadsheet rows into objects', planted: 'csv to json' },
  { query: 'copy an object including everything nested inside it', planted: 'deep clone object' },
  { query: 'take back the most recent change in version control', planted: 'git undo last commit' },
  { query: 'open the socket again by itself when the connection drops', planted: 'websocket reconect' },
  { query: 'digest of what a file on disk contains', planted: 'sha256 hash file' },
];
