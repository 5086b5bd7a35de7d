"""
Pieces for Sublime's start-up, run unchanged against a Satchel host with stand-ins for the editor.

Usage: python3 sublime_run.py <plugin root> <packages dir>   (env SATCHEL_PORT: the host's port)

The plugin's root (the pinned commit's whole tree: it carries its own copy of the Python SDK under
_pieces_lib) is imported as the package `Pieces`, its plugins in the order Sublime Text loads them.
Then their plugin_loaded() run as Sublime calls them; main.py's: the health socket opens, startup() checks the version, chooses the model its
settings name (`o4-mini-2025-04-16`, falling back to `gpt-4o`), opens its streams and launches its
onboarding. Prints one JSON object per line, {"step": ..., ...}.

Stand-ins, and why:
  - `sublime`, `sublime_plugin`, `mdpopups`: Sublime's own modules. What start-up asks of them
    (settings from the plugin's Pieces.sublime-settings, the platform, the packages directory, the
    async timer, the active window's commands) answers as Sublime would; anything else is a
    permissive object, and every command the plugin runs is recorded;
  - the SDK's port scan is pointed at the test host (as sdk_readme.py does); the plugin's own
    update check is a Sublime command and only recorded (no network beyond 127.0.0.1 in tests).
"""
import importlib.util
import json
import os
import re
import sys
import threading
import time
import traceback
import types

root, packages = sys.argv[1:3]
try:
    import websocket  # noqa: F401  (websocket-client: the plugin's copy is used; this only checks the path)
except ImportError:
    pass

PORT = os.environ["SATCHEL_PORT"]
commands = []
errors = []


def emit(step, **values):
    print(json.dumps({"step": step, **values}), flush=True)


def _fail(kind, value, tb):
    traceback.print_exception(kind, value, tb)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)


sys.excepthook = _fail
threading.excepthook = lambda args: (errors.append("".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))), traceback.print_exception(args.exc_type, args.exc_value, args.exc_traceback))


class Anything:
    """Whatever an editor object the start-up does not depend on is asked for."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return Anything()

    def __getattr__(self, name):
        return Anything()

    def __bool__(self):
        return False

    def __iter__(self):
        return iter(())

    def __getitem__(self, key):
        return Anything()


def permissive(name, **defined):
    module = types.ModuleType(name)
    module.__dict__.update(defined)

    def fallback(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        # Classes the plugin subclasses (TextCommand, EventListener, ...) and constants alike.
        return type(attr, (Anything,), {}) if attr[:1].isupper() else Anything()

    module.__getattr__ = fallback
    sys.modules[name] = module
    return module


def read_settings(path):
    text = open(path, encoding="utf-8").read()
    return json.loads(re.sub(r"//[^\n]*", "", text))


class Settings:
    def __init__(self, values):
        self.values = values

    def get(self, key, default=None):
        return self.values.get(key, default)

    def set(self, key, value):
        self.values[key] = value

    def add_on_change(self, key, callback):
        pass


settings_cache = {}


def load_settings(name):
    if name not in settings_cache:
        path = os.path.join(root, name)
        settings_cache[name] = Settings(read_settings(path) if os.path.exists(path) else {})
    return settings_cache[name]


class Region:
    def __init__(self, a, b=None):
        self.a = a
        self.b = a if b is None else b

    def begin(self):
        return min(self.a, self.b)

    def end(self):
        return max(self.a, self.b)


class View(Anything):
    """A buffer: the text commands the plugin runs on it that change text are applied."""

    def __init__(self, *args, **kwargs):
        self.text = ""
        self._settings = Settings({})

    def run_command(self, name, args=None):
        commands.append(["view", name, args])
        if name == "append":
            self.text += args["characters"]
        elif name == "pieces_remove_region":
            self.text = self.text[: args["a"]] + self.text[args["b"] :]

    def size(self):
        return len(self.text)

    def substr(self, region):
        return self.text[region.begin() : region.end()]

    def settings(self):
        return self._settings

    def is_valid(self):
        return True

    def __bool__(self):
        return True


class Window(Anything):
    def run_command(self, name, args=None):
        commands.append(["window", name, args])

    def new_file(self, *args, **kwargs):
        return View()


window = Window()


def set_timeout(callback, delay=0):
    # Sublime runs it later on its own thread (set_timeout: the UI's, set_timeout_async: a worker).
    timer = threading.Timer(delay / 1000, callback)
    timer.daemon = True
    timer.start()


permissive(
    "sublime",
    Region=Region,
    View=View,
    Window=Window,
    platform=lambda: "linux",
    ui_info=lambda: {"theme": {"style": "dark"}, "color_scheme": {"style": "dark"}},
    arch=lambda: "x64",
    version=lambda: "4180",
    packages_path=lambda: packages,
    load_settings=load_settings,
    save_settings=lambda name: None,
    active_window=lambda: window,
    windows=lambda: [window],
    run_command=lambda name, args=None: commands.append(["sublime", name, args]),
    set_timeout=set_timeout,
    set_timeout_async=set_timeout,
    status_message=lambda text: commands.append(["status", text, None]),
    error_message=lambda text: errors.append(text),
    message_dialog=lambda text: commands.append(["dialog", text, None]),
)
permissive("sublime_plugin")
permissive("mdpopups")

spec = importlib.util.spec_from_file_location("Pieces", os.path.join(root, "__init__.py"), submodule_search_locations=[root])
package = importlib.util.module_from_spec(spec)
sys.modules["Pieces"] = package
spec.loader.exec_module(package)

from Pieces._pieces_lib.pieces_os_client.wrapper import PiecesClient  # noqa: E402

PiecesClient._port_scanning = staticmethod(lambda: PORT)

# Sublime Text loads each .py file at the package's root as a plugin, in name order, then calls
# each one's plugin_loaded(); the plugin's imports rely on that order (settings.py alone is circular).
plugins = [importlib.import_module(f"Pieces.{name[:-3]}") for name in sorted(os.listdir(root)) if name.endswith(".py") and name != "__init__.py"]
from Pieces.settings import PiecesSettings  # noqa: E402

emit("imported", version=package.__version__, plugins=[plugin.__name__ for plugin in plugins])
for plugin in plugins:
    if hasattr(plugin, "plugin_loaded"):
        plugin.plugin_loaded()

# startup() runs on the health socket's thread once it opens; its last act is the onboarding.
deadline = time.monotonic() + 60
while time.monotonic() < deadline and not any(c[1] == "pieces_onboarding" for c in commands) and not errors:
    time.sleep(0.05)
client = PiecesSettings.api_client
model_id = getattr(client, "model_id", None)
chosen = next((m for m in (getattr(client, "models_object", None) or []) if m.id == model_id), None)
emit(
    "started",
    model_id=model_id,
    unique=chosen.unique if chosen else None,
    name=chosen.name if chosen else None,
    commands=commands,
    errors=errors,
)

# The copilot view (it opens with its ">>> **User**: " prompt): the question typed, then Enter
# (its pieces_enter_response command calls copilot.ask()).
from Pieces.copilot.ask_command import copilot  # noqa: E402

question = os.environ.get("SUBLIME_QUESTION", "")
if question:
    view = copilot.gpt_view
    copilot.add_query(question)
    copilot.ask()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not copilot.conversation_id and not errors:
        time.sleep(0.05)
    emit("answer", text=view.text, conversation=copilot.conversation_id, errors=errors)
sys.stdout.flush()
os._exit(0)
