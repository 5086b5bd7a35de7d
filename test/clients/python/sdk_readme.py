"""
The Pieces Python SDK's README examples, run unchanged against a Satchel host.

Usage: python3 sdk_readme.py <sdk src dir>   (env SATCHEL_PORT: the host's port)

Prints one JSON object per line, {"step": ..., ...}, for the Node test to assert on. The SDK is
imported from the src/ directory given on the command line (the commit in pinned.ts, extracted from a
local snapshot by snapshot.ts); its only change of behaviour here is
discovery: the SDK scans ports 39300-39333 for HEAD /.well-known/health, and the test host listens
on a free port instead (the Node test checks that discovery request on that port), so the scan is
pointed at it.
"""
import json
import os
import sys
import time
import traceback

sys.path.insert(0, sys.argv[1])
try:
    import websocket  # noqa: F401  (websocket-client)
except ImportError:
    # Debian's python3-websocket is pure Python; the interpreter running this may be another 3.x.
    sys.path.append("/usr/lib/python3/dist-packages")
    import websocket  # noqa: F401

PORT = os.environ["SATCHEL_PORT"]


def emit(step, **values):
    print(json.dumps({"step": step, **values}), flush=True)


from pieces_os_client.wrapper import PiecesClient  # noqa: E402

PiecesClient._port_scanning = staticmethod(lambda: PORT)


def _fail(kind, value, tb):
    # An uncaught error ends the run at once: the SDK's WebSocket threads (Debian's websocket-client
    # never ends them) would otherwise keep the process alive until the Node test's time limit.
    traceback.print_exception(kind, value, tb)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)


sys.excepthook = _fail

def settled(read, want, seconds=10.0):
    # The SDK's asset cache follows the assets stream: what a user sees a moment after an edit.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and read() != want:
        time.sleep(0.05)
    return read()


# README: "Create a new asset"
from pieces_os_client.models.classification_specific_enum import ClassificationSpecificEnum  # noqa: E402
from pieces_os_client.models.fragment_metadata import FragmentMetadata  # noqa: E402

pieces_client = PiecesClient()
# PiecesClient() checks health with a 100 ms timeout and, when the answer comes later, stays
# unstarted without a word (model_name is then missing). On a machine busy with other builds that can
# happen to a host that is up; a user would construct it again, this run starts it again, up to 10 s.
attempts = 1
while not pieces_client._is_started_runned and attempts < 40:
    time.sleep(0.25)
    attempts += 1
    pieces_client._startup()
# The user arrives on the /user/stream WebSocket, read on the SDK's own thread: a moment after start-up.
user_name = settled(lambda: pieces_client.user.name is not None, True) and pieces_client.user.name
emit("started", version=pieces_client.version, user=user_name, model=pieces_client.model_name, attempts=attempts)

content = "print('Hello, World!')"
metadata = FragmentMetadata(ext=ClassificationSpecificEnum.PY)
new_asset_id = pieces_client.create_asset(content, metadata)
emit("created", id=new_asset_id)

# README: "Get all assets and print their names" (and what a real client reads of each).
settled(lambda: new_asset_id in [a.id for a in pieces_client.assets()], True)
assets = pieces_client.assets()
emit(
    "assets",
    items=[
        {"id": asset.id, "name": asset.name, "raw": asset.raw_content, "language": asset.classification.value if asset.classification else None}
        for asset in assets
    ],
)

# The asset wrapper's edits: rename, edit content, delete.
asset = pieces_client.asset(new_asset_id)
asset.name = "Greeting"
asset.raw_content = "print('Hello, Satchel!')"


edited = pieces_client.asset(new_asset_id)
emit(
    "edited",
    name=settled(lambda: pieces_client.asset(new_asset_id).name, "Greeting"),
    raw=settled(lambda: pieces_client.asset(new_asset_id).raw_content, "print('Hello, Satchel!')"),
)

# README: "Ask a question" (streamed).
question = "What is Object-Oriented Programming?"
text = ""
for response in pieces_client.copilot.stream_question(question):
    if response.question:
        for answer in response.question.answers.iterable:
            text += answer.text
emit("answer", text=text, conversation=pieces_client.copilot.chat.id if pieces_client.copilot.chat else None)
chat = pieces_client.copilot.chat
emit("chat", name=chat.name, messages=[[m.role, m.raw_content] for m in chat.messages()])

# Search (the SDK's BasicAsset.search in its three modes).
from pieces_os_client.wrapper.basic_identifier import BasicAsset  # noqa: E402

for mode in ("fts", "ncs", "fuzzy"):
    found = BasicAsset.search("Satchel", mode) or []
    emit("search", mode=mode, ids=[a.id for a in found])

BasicAsset(new_asset_id).delete()
emit("deleted", remaining=settled(lambda: [a.id for a in pieces_client.assets()], []))

# README: the plain API client, health check. The README imports Configuration and ApiClient from
# the package root, which this SDK version no longer exports: they are imported from their modules.
from pieces_os_client.api.well_known_api import WellKnownApi  # noqa: E402
from pieces_os_client.api_client import ApiClient  # noqa: E402
from pieces_os_client.configuration import Configuration  # noqa: E402

configuration = Configuration(host=f"http://127.0.0.1:{PORT}")
with ApiClient(configuration) as api_client:
    emit("health", health=WellKnownApi(api_client).get_well_known_health())

# Debian bookworm's websocket-client is 1.2.3 (the SDK asks for >= 1.8): its run_forever() never
# wakes from select() once close() has closed the socket from another thread, so the SDK's close()
# joins those threads forever. The close is still sent (the host sees every stream end); the
# process then exits instead of waiting on the old library.
import threading  # noqa: E402

closing = threading.Thread(target=pieces_client.close, daemon=True)
closing.start()
closing.join(5)
emit("closed", clean=not closing.is_alive())
sys.stdout.flush()
os._exit(0)
