/**
 * The published Pieces clients the real-client tests run, each pinned to one commit.
 *
 * Their source is never part of this repository: the tests take it from a local snapshot of the
 * client's git repository (see snapshot.ts for where they look), extract `src/` at the pinned
 * commit into a cache under the OS temp directory, and skip with the reason when no snapshot holds
 * that commit.
 *
 * Providing a snapshot:
 *   - a git checkout (or clone) of the client anywhere, named by the client's env variable below (PIECES_CLI_SRC, PIECES_SDK_SRC, ...)
 *     (the commit below must be in its history; the checkout's own HEAD and work tree don't matter);
 *   - or the session's fetch mirror (/work/.mirror/<owner>+<name>/repo), found by itself.
 *
 * Updating a client:
 *   1. get a snapshot that holds the new commit (a clone, or fetch into the mirror);
 *   2. change `commit` (and `version`, from the client's pyproject.toml at that commit) below;
 *   3. run `npm run test:unit -- test/clients` — the real-client tests and test/clients/clientContract.test.ts;
 *      if the client reads something new, add it to the contract's field list there.
 */
export interface PinnedClient {
  /** GitHub owner/name. */
  readonly repo: string;
  readonly commit: string;
  /** The client's own version at that commit (pyproject.toml / package.json), for messages and the README. */
  readonly version: string;
  /** Env variable naming a git checkout of the client to take the source from. */
  readonly env: string;
  /** The directory under `tree` the tests import (a Python package; '' for the tree itself). */
  readonly pkg: string;
  /** The repository's directory the tests take (default 'src'; '' for the whole tree). */
  readonly tree?: string;
}

/** The Pieces CLI (`pieces`); its own copy of the SDK is under src/pieces/_vendor. */
export const PIECES_CLI: PinnedClient = {
  repo: 'pieces-app/cli-agent',
  commit: 'd621f13d96d9b0a98abd3e0a09680c39cc24e74b',
  version: '1.3.1',
  env: 'PIECES_CLI_SRC',
  pkg: 'pieces',
};

/** The Pieces OS client SDK for Python (`pieces_os_client`, with its `wrapper`). */
export const PIECES_SDK: PinnedClient = {
  repo: 'pieces-app/pieces-os-client-sdk-for-python',
  commit: '19a291068b191fcd8fa960232bf40db554fbbef8',
  version: '4.2.0',
  env: 'PIECES_SDK_SRC',
  pkg: 'pieces_os_client',
};

/**
 * Pieces' copilot vanilla TypeScript example (a browser page; no version of its own). Its
 * non-UI modules (src/index.ts's getApplication, CopilotStreamController, ModelProgressController)
 * are bundled at test time against this repository's @pieces.app/pieces-os-client (the example
 * locked 2.0.0-2; the API it calls is unchanged in 4.x).
 */
export const COPILOT_VANILLA_EXAMPLE: PinnedClient = {
  repo: 'pieces-app/pieces-copilot-vanilla-typescript-example',
  commit: '5eb6476b9f32cd9330dd886e01f97cd536181985',
  version: 'main@5eb6476',
  env: 'PIECES_VANILLA_EXAMPLE_SRC',
  pkg: '',
};

/**
 * Pieces' example app (React, `example-typescript`). Its non-UI modules (src/app/utils/Connect.tsx,
 * src/app/components/Asset/Asset.tsx, with its src/platform.config.ts) are bundled at test time
 * against this repository's @pieces.app/pieces-os-client (the app asks ^4.0.0). Its copilot panel
 * calls `pieces-copilot-sdk`, whose source cannot be had here: that part is not driven.
 */
export const EXAMPLE_TYPESCRIPT: PinnedClient = {
  repo: 'pieces-app/example-typescript',
  commit: 'c5dbe72978f1eaeda97f8103794b09b749509e9c',
  version: '1.1.0',
  env: 'PIECES_EXAMPLE_TS_SRC',
  pkg: 'app',
};

/**
 * Pieces for Neovim 1.5.1: its Python part (rplugin/python3/pieces_python), run with a stand-in
 * for Neovim (pynvim) and the pinned Python SDK above (the plugin asks pip for pieces_os_client
 * >= 4.4.0; the package index is out of reach here, so its update request is recorded, not run).
 */
export const PIECES_NEOVIM: PinnedClient = {
  repo: 'pieces-app/plugin_neovim',
  commit: '5d3240dbc27c786b301b0a7179849646619c624b',
  version: '1.5.1',
  env: 'PIECES_NEOVIM_SRC',
  pkg: 'pieces_python',
  tree: 'rplugin/python3',
};

/**
 * Pieces for Sublime 1.10.9 (tag 1.10.9). Its whole tree is taken: it is imported as the package
 * `Pieces` and carries its own copy of the Python SDK (_pieces_lib, pieces_os_client 5.0.1); run with
 * stand-ins for Sublime's modules (python/sublime_run.py).
 */
export const PIECES_SUBLIME: PinnedClient = {
  repo: 'pieces-app/plugin_sublime',
  commit: '77d514aea14bdf219c1d6bb98a767d46f48ba3a9',
  version: '1.10.9',
  env: 'PIECES_SUBLIME_SRC',
  pkg: '_pieces_lib',
  tree: '',
};
