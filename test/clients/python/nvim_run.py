"""
Pieces for Neovim's Python part (rplugin/python3/pieces_python), run unchanged against a Satchel
host with a stand-in for Neovim: its start-up (the settings' default model), its model list and
model change, and a copilot question as its Lua side sends it.

Usage: python3 nvim_run.py <sdk src dir> <plugin rplugin/python3 dir> <data dir> <question>
(env SATCHEL_PORT: the host's port)

Prints one JSON object per line, {"step": ..., ...}. Stand-ins, and why:
  - `pynvim`: the plugin's decorators register its functions with Neovim; here they return the
    function, and Neovim itself is FakeNvim below (what the plugin asks of it: its Lua config, its
    data directory, and the Lua it runs to render, which is recorded);
  - `pip`: the plugin asks pip to upgrade pieces_os_client below 4.4.0 (the pinned SDK is 4.2.0);
    the package index is out of reach, so the request is recorded;
  - the SDK's port scan is pointed at the test host (as sdk_readme.py does), and the plugin's check
    for a newer release on GitHub fails as it does offline (no network beyond 127.0.0.1 in tests).
"""
import json
import os
import sys
import threading
import time
import traceback
import types

sdk, plugin_dir, data_dir, question = sys.argv[1:5]
sys.path.insert(0, sdk)
sys.path.insert(0, plugin_dir)
try:
    import websocket  # noqa: F401  (websocket-client)
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")
    import websocket  # noqa: F401

PORT = os.environ["SATCHEL_PORT"]


def emit(step, **values):
    print(json.dumps({"step": step, **values}), flush=True)


def _fail(kind, value, tb):
    traceback.print_exception(kind, value, tb)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)


sys.excepthook = _fail

pynvim = types.ModuleType("pynvim")
pynvim.plugin = lambda cls: cls
pynvim.function = lambda name, sync=False, **_: (lambda f: f)
pynvim.command = lambda name, **_: (lambda f: f)
pynvim.autocmd = lambda name, **_: (lambda f: f)
pynvim.Nvim = object
sys.modules["pynvim"] = pynvim

pip_calls = []
pip = types.ModuleType("pip")
pip.main = lambda args: pip_calls.append(args) or 0
sys.modules["pip"] = pip


class FakeNvim:
    """What the plugin asks of Neovim; the Lua it runs is kept in `lua`."""

    def __init__(self):
        self.lua = []
        self.commands = []
        self.out = []
        self.lock = threading.Lock()

    def exec_lua(self, code, *args):
        if "return config.os" in code:
            return "LINUX"
        if "return config." in code:
            return None
        with self.lock:
            self.lua.append(" ".join(code.split()))
        return None

    def call(self, name, *args):
        if name == "stdpath":
            return data_dir
        raise AssertionError(f"unexpected nvim call {name}{args}")

    def command(self, text):
        self.commands.append(text)

    def async_call(self, fn, *args):
        fn(*args)

    def out_write(self, text):
        self.out.append(text)

    def err_write(self, text):
        self.out.append(text)


from pieces_os_client.wrapper import PiecesClient  # noqa: E402

PiecesClient._port_scanning = staticmethod(lambda: PORT)

import pieces_python  # noqa: E402  (its __init__: the SDK version check, then .main)
from pieces_python.main import Pieces  # noqa: E402
from pieces_python.settings import Settings  # noqa: E402
from pieces_python.startup import Startup  # noqa: E402


def offline():
    raise OSError("no network beyond 127.0.0.1 in tests")


Settings.get_latest_tag = staticmethod(offline)

emit("imported", pip=pip_calls)
nvim = FakeNvim()
plugin = Pieces(nvim)
Startup.startup()  # :call PiecesStartup()

# on_startup runs on the health socket's thread once it opens; it sets the default model last of
# all but the socket start, then BaseWebsocket.start_all().
deadline = time.monotonic() + 60
while time.monotonic() < deadline and getattr(Settings.api_client, "_model_name", None) in (None, "GPT-3.5-turbo Chat Model"):
    time.sleep(0.05)
emit("started", model=plugin.get_model([]), running=Settings.api_client.is_pos_stream_running if hasattr(Settings.api_client, "is_pos_stream_running") else None)

emit("models", lua=plugin.get_models([]))
emit("change", reply=plugin.change_model(["GPT-4o Chat Model"]), model=plugin.get_model([]))

# :PiecesCopilot, then a question: the Lua side calls PiecesCopilotSendQuestion.
plugin.send_question([question])
deadline = time.monotonic() + 120
while time.monotonic() < deadline and not any("completed(true)" in code for code in nvim.lua):
    time.sleep(0.05)
chat = [code for code in nvim.lua if "append_to_chat" in code or "completed(" in code]
conversation = Settings.api_client.copilot.chat
emit("answer", lua=chat, conversation=conversation.id if conversation else None)
emit("closed", out=nvim.out)
sys.stdout.flush()
os._exit(0)
