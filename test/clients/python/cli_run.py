"""
Runs the Pieces CLI (unchanged; its src/ at the commit in pinned.ts, extracted from a local snapshot by
snapshot.ts) against a Satchel host: python3 cli_run.py <cli src dir> <cli args...>
(env SATCHEL_PORT: the host's port; HOME: a fresh directory for the CLI's own settings).

The CLI's code is not changed. Three things around it are, each because of what this machine can
install (Debian bookworm packages; no PyPI):
- discovery: the CLI scans ports 39300-39333 for HEAD /.well-known/health; the test host listens on
  a free port instead (the Node test checks that discovery request on it), so the scan is pointed at it;
- `mcp` (the MCP Python SDK, 1.17): imported at start-up only for the CLI's `mcp` command group, and
  not installable here (not in Debian; its anyio/httpx/starlette minimums are above bookworm's), so
  an empty stand-in module answers the import; the commands tested never call it;
- platformdirs: Debian's 2.6 lacks the `ensure_exists` keyword (platformdirs 3) the CLI passes; it
  is accepted and honoured here.
"""
import os
import sys
import types

sys.path.insert(0, sys.argv[1])
# Pure-Python dependencies from Debian packages (rich, platformdirs, sentry-sdk, pyperclip, httpx,
# websocket-client), after the interpreter's own (pydantic 2, prompt_toolkit, PyYAML).
sys.path.append("/usr/lib/python3/dist-packages")

import platformdirs  # noqa: E402

_user_data_dir = platformdirs.user_data_dir


def user_data_dir(*args, ensure_exists=False, **kwargs):
    path = _user_data_dir(*args, **kwargs)
    if ensure_exists:
        os.makedirs(path, exist_ok=True)
    return path


platformdirs.user_data_dir = user_data_dir


class _Absent(types.ModuleType):
    """Any attribute is a placeholder class: enough for `from mcp... import X` at start-up."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {"__init__": lambda self, *a, **k: None})


for name in (
    "mcp", "mcp.types", "mcp.client", "mcp.client.sse", "mcp.client.streamable_http", "mcp.server",
    "mcp.server.stdio", "mcp.server.lowlevel", "mcp.server.models", "mcp.shared", "mcp.shared.exceptions",
):
    sys.modules[name] = _Absent(name)

from pieces._vendor.pieces_os_client.wrapper.client import PiecesClient  # noqa: E402

PiecesClient._port_scanning = staticmethod(lambda: os.environ["SATCHEL_PORT"])

sys.argv = ["pieces"] + sys.argv[2:]
from pieces.app import main  # noqa: E402

main()
